// The settings page (logged in only): profile and e-mail address, API keys, provider keys. Each
// form posts to its own address and answers the whole page with a notice or the error. A change
// of address asks for the current password (lib/emailChange.ts).
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { h } from 'preact';
import { createApiKey, listKeys, listProviderKeys, removeProviderKey, revokeKey, setProviderKey } from '../../lib/accounts.js';
import { PROVIDER_KINDS, type ProviderKind } from '../../lib/basemaps.js';
import { AppError } from '../../lib/errors.js';
import { PROVIDER_KIND_LABELS } from '../../lib/providerKeys.js';
import { changeEmail, resendVerification } from '../../lib/emailChange.js';
import type { WebAccountDeps } from '../../lib/webAccounts.js';
import { SettingsPage, type SettingsProps, type SettingsSection } from '../../web/pages/settingsPage.js';
import { addressBucket } from '../clientAddress.js';
import { afterAnswer } from './afterAnswer.js';
import { fields, requireViewer, STATUS, viewerOf } from './forms.js';
import { answerPage } from './pageAnswer.js';
import { csrfToken } from './security.js';
import type { Db } from '../../db/connection.js';
import { deleteWebhook, listWebhooks } from '../../db/webhooks.js';
import type { Config } from '../../lib/config.js';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../../lib/webhooks/model.js';
import { registerWebhook } from '../routes/webhook/create.js';

const PROVIDER_HELP: Record<ProviderKind, string> = {
  map_platform: 'The "Default public token" of your map platform account (a free account has one); it must start with pk. — never a secret sk. token.',
  location_platform: 'The REST API key of an app in your location platform project.',
  gis_platform:
    'A developer credential of type "API key" with the Basemaps privilege. It is shown only once when you create it, and expires after a year: then renew it and paste the new one here.',
  tile_provider: 'The API key on the dashboard of your tile provider account (the free hobby plan has one).',
};

type Message = Pick<SettingsProps, 'error' | 'notice' | 'newKey' | 'confirmRevoke' | 'section' | 'typedEmail' | 'newWebhook'>;

/** The Webhooks section's database and settings. */
export interface SettingsWebhookDeps {
  db: Db;
  config: Pick<Config, 'webhookAllowPrivate'>;
}

async function showSettings(ctx: Context, deps: WebAccountDeps & { hooks: SettingsWebhookDeps }, message: Message = {}, status = 200): Promise<void> {
  const viewer = viewerOf(ctx)!;
  const [pendingEmail, keys, providerKeys, hooks] = await Promise.all([
    deps.web.pendingEmailOf(viewer.id),
    listKeys(deps.accounts, viewer.username),
    listProviderKeys(deps.accounts, viewer.username),
    listWebhooks(deps.hooks.db, viewer.id),
  ]);
  const label = (kind: ProviderKind) => PROVIDER_KIND_LABELS[kind].replace(/^./, (c) => c.toUpperCase());
  answerPage(ctx, {
    status,
    title: 'Settings',
    body: h(SettingsPage, {
      csrf: csrfToken(ctx),
      username: viewer.username,
      email: viewer.email,
      emailVerified: viewer.emailVerified,
      pendingEmail,
      apiKeys: keys
        .filter((key) => key.revokedAt === null)
        .map((key) => ({ prefix: key.prefix, name: key.name, createdAt: key.createdAt.toISOString(), lastUsedAt: key.lastUsedAt?.toISOString() ?? null })),
      providerKeys: PROVIDER_KINDS.map((kind) => ({
        kind,
        label: label(kind),
        help: PROVIDER_HELP[kind],
        masked: providerKeys.find((saved) => saved.kind === kind)?.masked ?? null,
      })),
      webhooks: hooks.map((hook) => ({
        id: hook.id,
        scope: hook.mapId === null ? 'all your maps' : `map ${hook.mapId}`,
        url: hook.url,
        events: hook.events,
        enabled: hook.enabled,
        deliveries: hook.deliveries.map((d) => ({ eventType: d.eventType, status: d.status, attempts: d.attempts, responseCode: d.responseCode, error: d.lastError, createdAt: d.createdAt.toISOString() })),
      })),
      webhookEvents: WEBHOOK_EVENTS,
      ...message,
    }),
  });
}

export function mountSettingsRoutes(router: Router, accountDeps: WebAccountDeps, form: Middleware[], hooks: SettingsWebhookDeps): void {
  const deps = { ...accountDeps, hooks };
  const loggedIn = requireViewer('/settings');
  /** A settings form: its action, then the page with the notice, or with the error. */
  const action = (path: string, section: SettingsSection, run: (ctx: Context) => Promise<Message>) =>
    router.post(path, ...form, loggedIn, async (ctx) => {
      try {
        await showSettings(ctx, deps, { ...(await run(ctx)), section });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        // What was typed stays in its field (never a password).
        await showSettings(ctx, deps, { error: error.message, section, typedEmail: fields(ctx).email }, STATUS[error.code] ?? 400);
      }
    });

  router.get('/settings', loggedIn, (ctx) => showSettings(ctx, deps));
  action('/settings/resend', 'profile', async (ctx) => {
    afterAnswer(ctx, await resendVerification(deps, viewerOf(ctx)!));
    return { notice: 'We sent the verification link again; only the newest link works.' };
  });
  action('/settings/email', 'profile', async (ctx) => {
    const { email = '', password = '' } = fields(ctx);
    // The same answer whether or not another account has the address: its mail goes out after it.
    afterAnswer(ctx, await changeEmail(deps, viewerOf(ctx)!, { email, password, address: addressBucket(ctx.ip) }));
    return { notice: 'We sent a link to the new address; it becomes your address once you open it. Earlier links no longer work.' };
  });
  action('/settings/api-keys', 'developer', async (ctx) => {
    const name = (fields(ctx).name ?? '').trim();
    if (!name) throw new AppError('invalid_arguments', 'Give the new key a name, so you can tell it from others later.');
    const created = await createApiKey(deps.accounts, viewerOf(ctx)!.username, name);
    return { newKey: { key: created.key, name } };
  });
  // Revoke asks first (the page again, with a confirmation naming the key); its Revoke it does it.
  action('/settings/api-keys/revoke', 'developer', async (ctx) => {
    const { prefix = '', confirm } = fields(ctx);
    const username = viewerOf(ctx)!.username;
    if (confirm !== '1') {
      const key = (await listKeys(deps.accounts, username)).find((row) => row.prefix === prefix && row.revokedAt === null);
      if (!key) throw new AppError('invalid_arguments', 'There is no such key to revoke: it may be revoked already.');
      return { confirmRevoke: { prefix: key.prefix, name: key.name } };
    }
    await revokeKey(deps.accounts, username, prefix);
    return { notice: 'The key is revoked: programs using it are refused from now on.' };
  });
  action('/settings/provider-keys', 'provider-keys', async (ctx) => {
    const { kind = '', key = '' } = fields(ctx);
    const masked = await setProviderKey(deps.accounts, viewerOf(ctx)!.username, kind, key);
    return { notice: `Saved: ${masked}.` };
  });
  action('/settings/webhooks', 'webhooks', async (ctx) => {
    const { webhook_url: url = '', webhook_map: map = '' } = fields(ctx);
    const given = ((ctx.request as { body?: Record<string, unknown> }).body ?? {}).events;
    const events = (Array.isArray(given) ? given : [given]).filter((event): event is WebhookEventType => (WEBHOOK_EVENTS as readonly unknown[]).includes(event));
    if (events.length === 0) throw new AppError('invalid_arguments', 'Tick at least one event.');
    if (map.trim() !== '' && !/^\d{1,16}$/.test(map.trim())) throw new AppError('invalid_arguments', 'The map number is the number in the map\'s settings; leave it empty for all your maps.');
    const created = await registerWebhook(hooks.db, hooks.config, viewerOf(ctx)!.id, { mapId: map.trim() === '' ? undefined : Number(map.trim()), url: url.trim(), events });
    return { newWebhook: { url: created.webhook.url, secret: created.secret } };
  });
  action('/settings/webhooks/delete', 'webhooks', async (ctx) => {
    const id = Number(fields(ctx).id);
    if (!Number.isSafeInteger(id) || !(await deleteWebhook(hooks.db, viewerOf(ctx)!.id, id))) throw new AppError('webhook_not_found', 'There is no such endpoint: it may be deleted already.');
    return { notice: 'The endpoint is deleted.' };
  });
  action('/settings/provider-keys/remove', 'provider-keys', async (ctx) => {
    await removeProviderKey(deps.accounts, viewerOf(ctx)!.username, fields(ctx).kind ?? '');
    return { notice: 'The provider key is removed.' };
  });
}
