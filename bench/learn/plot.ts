interface Point {
  strategy: string;
  batch: number;
  retained: number;
  planted: number;
}

/** A small dependency-free SVG: planted lessons kept vs batch size — naive, combee's √n plan, the capacity-aware plan. */
export function retentionSvg(points: Point[], sequentialKept: number): string {
  const width = 560;
  const height = 340;
  const left = 60;
  const bottom = 290;
  const top = 30;
  const right = 520;
  // sequential (batch 1) is the dashed line across, not a point of the axis
  const batches = [...new Set(points.filter((p) => p.strategy !== 'sequential').map((p) => p.batch))].sort(
    (a, b) => a - b,
  );
  const x = (b: number) =>
    left +
    ((Math.log(b) - Math.log(batches[0])) / (Math.log(batches[batches.length - 1]) - Math.log(batches[0]) || 1)) *
      (right - left);
  const planted = points[0]?.planted ?? 1;
  const y = (v: number) => bottom - (v / planted) * (bottom - top);
  const series = (strategy: string, color: string) => {
    const pts = points.filter((p) => p.strategy === strategy).sort((a, b) => a.batch - b.batch);
    const path = pts
      .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.batch).toFixed(1)},${y(p.retained).toFixed(1)}`)
      .join(' ');
    const dots = pts
      .map(
        (p) =>
          `<circle cx="${x(p.batch).toFixed(1)}" cy="${y(p.retained).toFixed(1)}" r="3.5" fill="${color}"><title>${strategy} batch ${p.batch}: ${p.retained}/${p.planted}</title></circle>`,
      )
      .join('');
    return `<path d="${path}" fill="none" stroke="${color}" stroke-width="2"/>${dots}`;
  };
  const ticks = batches
    .map((b) => `<text x="${x(b).toFixed(1)}" y="${bottom + 18}" text-anchor="middle">${b}</text>`)
    .join('');
  const yTicks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (f) =>
        `<text x="${left - 8}" y="${(y(f * planted) + 4).toFixed(1)}" text-anchor="end">${Math.round(f * 100)}%</text><line x1="${left}" x2="${right}" y1="${y(f * planted).toFixed(1)}" y2="${y(f * planted).toFixed(1)}" stroke="#ddd"/>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="${width / 2}" y="18" text-anchor="middle" font-weight="bold">Planted lessons kept vs batch size (SIMULATION: capacity-limited aggregator)</text>
${yTicks}${ticks}
<line x1="${left}" x2="${right}" y1="${y(sequentialKept).toFixed(1)}" y2="${y(sequentialKept).toFixed(1)}" stroke="#888" stroke-dasharray="4 3"/>
<text x="${right}" y="${(y(sequentialKept) + 14).toFixed(1)}" text-anchor="end" fill="#666">sequential (batch 1)</text>
${series('naive', '#d9534f')}${series('combee-sqrt', '#f0ad4e')}${series('combee', '#2a7ae2')}
<text x="${left + 10}" y="${bottom - 46}" fill="#d9534f">naive (one aggregation call)</text>
<text x="${left + 10}" y="${bottom - 30}" fill="#f0ad4e">combee, √n plan (k = ⌊√n⌋, fan-in levels)</text>
<text x="${left + 10}" y="${bottom - 14}" fill="#2a7ae2">combee, capacity-aware plan (every call fits; merged in code)</text>
<text x="${(left + right) / 2}" y="${height - 8}" text-anchor="middle">batch size (log scale)</text>
</svg>
`;
}
