import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../../lib/query-keys.ts';
import { accessChanged } from './access-changed.ts';

describe('accessChanged', () => {
  it('invalidates the panel’s access and every person’s, and nothing else', () => {
    const client = new QueryClient();
    const keys = [
      queryKeys.panelAccess(7),
      queryKeys.panelAccess(8),
      queryKeys.personAccess('ana'),
      queryKeys.personAccess('bia'),
      queryKeys.activeUsers,
      queryKeys.linkedUsers(7),
    ];
    for (const key of keys) client.setQueryData(key, {});
    accessChanged(client, 7);
    const invalidated = keys.map((key) => client.getQueryState(key)?.isInvalidated);
    expect(invalidated).toEqual([true, false, true, true, false, false]);
  });
});
