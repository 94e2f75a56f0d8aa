// Ready-to-copy calls of each operation for the API reference (/docs/api): curl, Python
// (requests) and JavaScript (fetch, Node 18+ or a browser), built from the operation's own example
// arguments, as OpenAPI `x-codeSamples` (the form Redoc shows as tabs). The key comes from the
// API_KEY environment variable in each, never written into the sample.
import { ARG_HEADER } from './arguments.js';
import type { Operation } from './operation.js';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** How each Python and JavaScript sample ends: the answer printed, or a failure raised with its code. */
const PYTHON_ANSWER = ['if "error" in answer:', `    raise RuntimeError(f"{answer['error_code']}: {answer['error']}")`, 'print(answer)'];
const JAVASCRIPT_ANSWER = ['const answer = await response.json();', 'if (answer.error) throw new Error(`${answer.error_code}: ${answer.error}`);', 'console.log(answer);'];

/** A shell word in single quotes. */
const shellQuoted = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The value as a Python literal (JSON's strings and numbers are Python's; true, false and null are not). */
function python(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((item) => `${inner}${python(item, inner)},`).join('\n')}\n${indent}]`;
  const entries = Object.entries(value);
  return entries.length === 0 ? '{}' : `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${python(item, inner)},`).join('\n')}\n${indent}}`;
}

/** The file a file operation's example sends: named by its file_type. */
const exampleFile = (args: Record<string, unknown>): string | undefined => {
  const type = typeof args.file_type === 'string' ? args.file_type : undefined;
  return type === 'empty' ? undefined : `example.${type ?? 'bin'}`;
};

/** curl, Python and JavaScript calls of the operation with its example arguments, at baseUrl. */
export function codeSamplesOf(operation: Operation, baseUrl: string): CodeSample[] {
  const url = `${baseUrl}/api/1/${operation.path}`;
  const args = operation.example.args as Record<string, unknown>;
  const json = JSON.stringify(args);
  if (operation.kind === 'json') {
    return [
      { lang: 'Shell', label: 'curl', source: `curl -sS ${url} \\\n  -H "Authorization: Token $API_KEY" \\\n  -H 'Content-Type: application/json' \\\n  -d ${shellQuoted(json)}` },
      {
        lang: 'Python',
        label: 'Python',
        source: [
          'import os',
          'import requests',
          '',
          `answer = requests.post(`,
          `    ${JSON.stringify(url)},`,
          `    headers={"Authorization": f"Token {os.environ['API_KEY']}"},`,
          `    json=${python(args, '    ')},`,
          ').json()',
          ...PYTHON_ANSWER,
        ].join('\n'),
      },
      {
        lang: 'JavaScript',
        label: 'JavaScript',
        source: [
          `const response = await fetch(${JSON.stringify(url)}, {`,
          "  method: 'POST',",
          "  headers: { Authorization: `Token ${process.env.API_KEY}`, 'Content-Type': 'application/json' },",
          `  body: JSON.stringify(${JSON.stringify(args, null, 2).replace(/\n/g, '\n  ')}),`,
          '});',
          ...JAVASCRIPT_ANSWER,
        ].join('\n'),
      },
    ];
  }
  const file = exampleFile(args);
  return [
    {
      lang: 'Shell',
      label: 'curl',
      source: `curl -sS ${url} \\\n  -H "Authorization: Token $API_KEY" \\\n  -H ${shellQuoted(`${ARG_HEADER}: ${json}`)}${file ? ` \\\n  --data-binary @${file}` : ' \\\n  -X POST'}`,
    },
    {
      lang: 'Python',
      label: 'Python',
      source: [
        'import json',
        'import os',
        'import requests',
        '',
        ...(file ? [`with open(${JSON.stringify(file)}, "rb") as file:`] : []),
        `${file ? '    ' : ''}answer = requests.post(`,
        `${file ? '    ' : ''}    ${JSON.stringify(url)},`,
        `${file ? '    ' : ''}    headers={`,
        `${file ? '    ' : ''}        "Authorization": f"Token {os.environ['API_KEY']}",`,
        `${file ? '    ' : ''}        ${JSON.stringify(ARG_HEADER)}: json.dumps(${python(args, file ? '        ' : '    ')}),`,
        `${file ? '    ' : ''}    },`,
        ...(file ? ['        data=file,'] : []),
        `${file ? '    ' : ''}).json()`,
        ...PYTHON_ANSWER,
      ].join('\n'),
    },
    {
      lang: 'JavaScript',
      label: 'JavaScript',
      source: [
        ...(file ? ["import { readFile } from 'node:fs/promises';", ''] : []),
        `const response = await fetch(${JSON.stringify(url)}, {`,
        "  method: 'POST',",
        '  headers: {',
        '    Authorization: `Token ${process.env.API_KEY}`,',
        `    ${JSON.stringify(ARG_HEADER)}: JSON.stringify(${JSON.stringify(args)}),`,
        '  },',
        ...(file ? [`  body: await readFile(${JSON.stringify(file)}),`] : []),
        '});',
        ...JAVASCRIPT_ANSWER,
      ].join('\n'),
    },
  ];
}
