import type { Capacidade } from '@paineis/contract/capacity';
import { Bar, BarChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatHours } from '../utils/capacity-labels.ts';

// SVG attributes take no CSS variables: the theme's primary (styles/theme.css) and Bootstrap's secondary grey.
const PRIMARY = '#1f5faa';
const SECONDARY = '#6c757d';

type Dia = Capacidade['mes']['dias'][number];

/** 'DD/MM' from the day's 'YYYY-MM-DD', without a Date: the day is the policy's zone's, not this browser's. */
export const shortDay = (dia: string) => `${dia.slice(8, 10)}/${dia.slice(5, 7)}`;

/** Hours the capacity ran each day of the month, against the 24 of a capacity always on. */
export function CapacityMonthChart({ dias }: { dias: Dia[] }) {
  return (
    <ResponsiveContainer width="100%" height={240} initialDimension={{ width: 600, height: 240 }}>
      {/* The title names the chart for screen readers; the table below it gives every day's figures. */}
      <BarChart data={dias} margin={{ top: 20, right: 8, bottom: 0, left: 0 }} title="Horas ativa por dia">
        <CartesianGrid stroke="#dee2e6" vertical={false} />
        <XAxis dataKey="dia" tickFormatter={shortDay} minTickGap={12} tick={{ fontSize: 12 }} />
        <YAxis domain={[0, 24]} ticks={[0, 6, 12, 18, 24]} width={32} tick={{ fontSize: 12 }} />
        <Tooltip
          labelFormatter={(dia) => (typeof dia === 'string' ? shortDay(dia) : dia)}
          formatter={(value) => formatHours(Number(value))}
        />
        <ReferenceLine
          y={24}
          stroke={SECONDARY}
          strokeDasharray="4 4"
          label={{ value: 'Sempre ativa', position: 'top', fontSize: 12, fill: SECONDARY }}
        />
        {/* Drawn at once: a chart that grows for a second and a half is read (and captured) half-way. */}
        <Bar
          dataKey="horasAtiva"
          name="Horas ativa"
          fill={PRIMARY}
          maxBarSize={28}
          radius={[3, 3, 0, 0]}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
