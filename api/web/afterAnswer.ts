// Work an account page does after it has answered (issue 24): finding whether an address belongs
// to an account, making its link and sending the mail take time that differs by the answer, so
// they must not delay it (lib/webAccounts.ts, MailWork). Started when the response is done
// (`close`: sent, or the client gone); a failure is logged, never the client's concern. A process
// stopped in that moment loses the mail; asking again sends another.
import type { Context } from 'koa';
import type { MailWork } from '../../lib/webAccounts.js';
import { logInternalError } from '../internalErrorLog.js';
import { requestContextOf } from '../requestContext.js';

export function afterAnswer(ctx: Context, work: MailWork | undefined): void {
  if (!work) return;
  ctx.res.once('close', () => {
    work().catch((error: unknown) => logInternalError(`${ctx.method} ${ctx.path}: the mail after the answer failed`, error, requestContextOf(ctx)?.requestId));
  });
}
