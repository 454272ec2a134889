/** The 14-day tx chart (uPlot) of /v1/stats `tx_daily`. */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { S } from './api';

export function TxDailyChart({ days }: { days: S['TxDay'][] }) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const xs = days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
    const ys = days.map((d) => d.count);
    const plot = new uPlot(
      {
        width: Math.min(720, el.current.clientWidth || 720),
        height: 220,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
        axes: [{}, { label: 'txs' }],
        series: [
          { label: 'day (UTC)', value: (_u, v) => (v == null ? '' : new Date(v * 1000).toISOString().slice(0, 10)) },
          {
            label: 'txs',
            stroke: '#2a6df4',
            fill: 'rgba(42,109,244,0.15)',
            width: 2,
            paths: uPlot.paths.bars?.({ size: [0.7] }),
          },
        ],
      },
      [xs, ys],
      el.current,
    );
    return () => plot.destroy();
  }, [days.map((d) => `${d.day}:${d.count}`).join(',')]);
  return <div ref={el} class="chart" aria-label="transactions per UTC day, last 14 days" />;
}
