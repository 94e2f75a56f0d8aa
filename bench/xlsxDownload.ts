// The XLSX download of a 50,000-point map (lib/formats/export/xlsx.ts) against the CSV download
// of the same table and against two other ways of using exceljs — its shared-strings table and
// its whole-workbook writer —, each side in its own process (bench/xlsxDownloadSide.ts, the Node
// flags of `npm start`): one warm-up, median of 3 runs, wall and CPU time (CPU time is the steadier
// on a busy machine); memory is the process's peak resident size above its size once the
// features are made; the longest stall is how long the event loop was held at once.
//   npm run bench -- xlsx
import { execFileSync } from 'node:child_process';

const SIDES = ['csv', 'xlsx', 'exceljs-shared-strings', 'exceljs-workbook'] as const;
const POINTS = 50_000;
const RUNS = 3;

interface SideResult {
  side: string;
  points: number;
  ms: number[];
  cpuMs: number[];
  bytes: number;
  idleRss: number;
  peakRss: number;
  stallMs: number;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;

export function benchXlsxDownload(): Record<string, unknown>[] {
  return SIDES.map((side) => {
    const output = execFileSync(process.execPath, ['--max-semi-space-size=2', '--import', 'tsx', 'bench/xlsxDownloadSide.ts', side, String(RUNS), String(POINTS)], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    const line = output.split('\n').find((text) => text.startsWith('RESULT '));
    if (!line) throw new Error(`the ${side} side printed no result:\n${output}`);
    const result = JSON.parse(line.slice('RESULT '.length)) as SideResult;
    return {
      writer: side,
      points: result.points,
      'median ms': Math.round(median(result.ms)),
      'median CPU ms': Math.round(median(result.cpuMs)),
      'file MB': mb(result.bytes),
      'peak above idle MB': mb(result.peakRss - result.idleRss),
      'longest event-loop stall ms': Math.round(result.stallMs),
    };
  });
}
