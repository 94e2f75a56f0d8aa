// Where the time of an upload goes inside Temporal: the histories of the upload workflows
// started since a moment, each event's time since the one before it, by the pair of event kinds
// (e.g. "workflowTaskScheduled → workflowTaskStarted" is the wait for a worker to take the
// workflow task; "activityTaskStarted → activityTaskCompleted" the parse activity's run; the
// short database writes run as local activities inside a workflow task). Medians over the
// workflows. `workflow run` is the whole execution; the client's time beyond it is the API's
// (receiving the body, the blob store, starting the workflow, delivering its result).
import { Client, Connection } from '@temporalio/client';
import { summarize } from './stats.js';

export type UploadTimeline = Record<string, number>;

/** The kind of a history event: the name of the one `…EventAttributes` field it carries. */
function kindOf(event: Record<string, unknown>): string {
  for (const key of Object.keys(event)) if (key.endsWith('EventAttributes') && event[key]) return key.slice(0, -'EventAttributes'.length);
  return 'unknown';
}

function millisOf(time: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  return Number(time?.seconds ?? 0) * 1000 + (time?.nanos ?? 0) / 1e6;
}

export async function uploadTimeline(address: string, since: Date, workflowType = 'uploadMap'): Promise<UploadTimeline> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection });
    const gaps = new Map<string, number[]>();
    const runs: number[] = [];
    const query = `WorkflowType = '${workflowType}' AND StartTime >= '${since.toISOString()}'`;
    for await (const workflow of client.workflow.list({ query })) {
      const history = await client.workflow.getHandle(workflow.workflowId, workflow.runId).fetchHistory();
      const events = (history.events ?? []) as unknown as Record<string, unknown>[];
      const times = events.map((event) => millisOf(event.eventTime as never));
      runs.push(times[times.length - 1]! - times[0]!);
      const seen = new Map<string, number>();
      for (let i = 1; i < events.length; i++) {
        const pair = `${kindOf(events[i - 1]!)} → ${kindOf(events[i]!)}`;
        const occurrence = (seen.get(pair) ?? 0) + 1;
        seen.set(pair, occurrence);
        const label = `${i}. ${pair}${occurrence > 1 ? ` (#${occurrence})` : ''}`;
        const list = gaps.get(label) ?? [];
        list.push(times[i]! - times[i - 1]!);
        gaps.set(label, list);
      }
    }
    const timeline: UploadTimeline = { 'workflow run': summarize(runs).median };
    for (const [label, values] of gaps) timeline[label] = summarize(values).median;
    return timeline;
  } finally {
    await connection.close();
  }
}
