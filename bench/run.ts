// `npm run bench`: every benchmark, each running its reference beside our code in the same run.
// Results are printed and written to bench/out/results.json.
import fs from 'node:fs';
import { benchApiLatency } from './apiLatency.js';

const results: Record<string, unknown> = {};
console.log('API latency (embedded service, PostgreSQL, 50 runs each) …');
results.apiLatency = await benchApiLatency();
console.log(JSON.stringify(results.apiLatency, null, 2));

fs.mkdirSync('bench/out', { recursive: true });
fs.writeFileSync('bench/out/results.json', JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
