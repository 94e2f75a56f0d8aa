// Workflow interceptors (registered by workers/createWorker.ts, bundled with the workflows): the
// request id the API put in a workflow's memo goes on every log line of the workflow (the
// `log` of @temporalio/workflow and the SDK's own "Workflow failed" …) and, in a header, to
// each activity it schedules, whose log lines carry it too (workers/activityRequestContext.ts).
// Child workflows do not inherit it: the one uploadMap starts is the map's long-lived
// map-image workflow, which serves later requests too.
import { defaultPayloadConverter, workflowInfo, type ActivityInput, type LocalActivityInput, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { REQUEST_ID_HEADER, REQUEST_ID_MEMO } from '../lib/observability/requestId.js';

function requestId(): string | undefined {
  const value = workflowInfo().memo?.[REQUEST_ID_MEMO];
  return typeof value === 'string' ? value : undefined;
}

function withRequestId<T extends ActivityInput | LocalActivityInput>(input: T): T {
  const id = requestId();
  return id === undefined ? input : { ...input, headers: { ...input.headers, [REQUEST_ID_HEADER]: defaultPayloadConverter.toPayload(id) } };
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  outbound: [
    {
      scheduleActivity: (input, next) => next(withRequestId(input)),
      scheduleLocalActivity: (input, next) => next(withRequestId(input)),
      getLogAttributes: (input, next) => {
        const id = requestId();
        return next(id === undefined ? input : { ...input, request_id: id });
      },
    },
  ],
});
