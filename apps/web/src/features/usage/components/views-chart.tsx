import type { UsoDia } from '@paineis/contract/usage';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDate, formatInteger } from '../../../lib/format.ts';
import { parseDay } from '../utils/csv.ts';

// SVG attributes take no CSS variables: the theme's primary (styles/theme.css) and Bootstrap's secondary grey.
const PRIMARY = '#1f5faa';
const SECONDARY = '#6c757d';

/** '23/11' on the axis; the tooltip says the whole date. */
const shortDay = (dia: string) => formatDate(parseDay(dia)).slice(0, 5);

/** 'Visualizações por dia': views as bars, distinct people as a line, one point per day of the period. */
export function ViewsChart({ porDia }: { porDia: UsoDia[] }) {
  return (
    <ResponsiveContainer width="100%" height={280} initialDimension={{ width: 600, height: 280 }}>
      {/* The title names the chart for screen readers; recharts' keyboard layer reads each day's values. */}
      <ComposedChart
        data={porDia}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        title="Visualizações e pessoas por dia"
      >
        <CartesianGrid stroke="#dee2e6" vertical={false} />
        <XAxis dataKey="dia" tickFormatter={shortDay} minTickGap={12} tick={{ fontSize: 12 }} />
        <YAxis
          allowDecimals={false}
          tickFormatter={(n: number) => formatInteger(n)}
          width={44}
          tick={{ fontSize: 12 }}
        />
        <Tooltip
          labelFormatter={(dia) => (typeof dia === 'string' ? formatDate(parseDay(dia)) : dia)}
          formatter={(value) => formatInteger(Number(value))}
        />
        <Legend />
        <Bar dataKey="visualizacoes" name="Visualizações" fill={PRIMARY} maxBarSize={28} radius={[3, 3, 0, 0]} />
        <Line
          dataKey="pessoas"
          name="Pessoas"
          type="monotone"
          stroke={SECONDARY}
          strokeWidth={2}
          dot={porDia.length <= 31}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
