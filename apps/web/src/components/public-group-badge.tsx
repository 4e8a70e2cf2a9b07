import Badge from 'react-bootstrap/Badge';
import { PUBLIC_GROUP_NOTE } from '@paineis/contract/group-constants';

export const PUBLIC_GROUP_LABEL = 'Público';

/**
 * Marks a public Microsoft 365 group, which anyone in the organisation may join unapproved: 'Público' on screen, the
 * whole note on hover and for screen readers (docs/decisions/018-access-by-group.md, "Public groups").
 */
export function PublicGroupBadge() {
  return (
    <Badge
      bg="warning-subtle"
      text="warning-emphasis"
      className="border border-warning-subtle"
      title={PUBLIC_GROUP_NOTE}
    >
      <span aria-hidden="true">{PUBLIC_GROUP_LABEL}</span>
      <span className="visually-hidden">{PUBLIC_GROUP_NOTE}</span>
    </Badge>
  );
}
