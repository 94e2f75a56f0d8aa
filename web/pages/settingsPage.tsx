// Settings, in the spec's sections: Profile (username, e-mail address and its verification, a
// change of address with the current password), Developer (API keys: create with a name, shown
// once with a copy button; listed by prefix with creation and last-use dates; revoke) and Map
// provider keys (one field and one Save per provider kind; a saved key shown masked, removable) and
// Webhooks (endpoints with their last deliveries, Delete; a form to add one, its secret shown once).
import { CsrfField, Field, Notice } from './layout.js';

export interface ApiKeyRow {
  prefix: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface ProviderKeyRow {
  kind: string;
  label: string;
  help: string;
  masked: string | null;
}

export interface WebhookRow {
  id: number;
  /** "All your maps" or "Map 123". */
  scope: string;
  url: string;
  events: string[];
  enabled: boolean;
  deliveries: { eventType: string; status: string; attempts: number; responseCode: number | null; error: string | null; createdAt: string }[];
}

export interface SettingsProps {
  csrf: string;
  username: string;
  email: string;
  emailVerified: boolean;
  pendingEmail: string | null;
  apiKeys: ApiKeyRow[];
  /** A key just created: shown this once. */
  newKey?: { key: string; name: string };
  /** Revoke was pressed for this key: asked once more before it is done. */
  confirmRevoke?: { prefix: string; name: string };
  providerKeys: ProviderKeyRow[];
  webhooks: WebhookRow[];
  /** The events an endpoint can be sent. */
  webhookEvents: readonly string[];
  /** An endpoint just created: its secret, shown this once. */
  newWebhook?: { url: string; secret: string };
  error?: string;
  notice?: string;
  /** The new address typed into a change of address that was refused, shown again. */
  typedEmail?: string | undefined;
  /** The section whose form was sent: its message is shown there (the form's address scrolls to it). */
  section?: SettingsSection;
}

export type SettingsSection = 'profile' | 'developer' | 'provider-keys' | 'webhooks';

const day = (iso: string) => iso.slice(0, 10);

export function SettingsPage(props: SettingsProps) {
  const at = (section: SettingsSection) => (props.section === section ? <Notice error={props.error} notice={props.notice} /> : null);
  return (
    <section class="card wide">
      <h1>Settings</h1>
      {props.section ? null : <Notice error={props.error} notice={props.notice} />}
      <h2 id="profile">Profile</h2>
      {at('profile')}
      <dl>
        <dt>Username</dt>
        <dd>{props.username}</dd>
        <dt>E-mail address</dt>
        <dd>
          {props.email} {props.emailVerified ? <span class="badge">verified</span> : <span class="badge warn">not verified</span>}
        </dd>
        {props.pendingEmail ? (
          <>
            <dt>New address</dt>
            <dd>
              {props.pendingEmail} <span class="badge warn">waiting for its link to be opened</span>
            </dd>
          </>
        ) : null}
      </dl>
      {!props.emailVerified || props.pendingEmail ? (
        <form method="post" action="/settings/resend#profile">
          <CsrfField token={props.csrf} />
          <button type="submit">Send the verification link again</button>
        </form>
      ) : null}
      <h2>Change your e-mail address</h2>
      <form method="post" action="/settings/email#profile">
        <CsrfField token={props.csrf} />
        <Field
          label="New e-mail address"
          name="email"
          type="email"
          value={props.typedEmail}
          autocomplete="email"
          hint="The current address stays until you open the link we send to the new one; a newer request voids earlier links."
        />
        <Field label="Current password" name="password" type="password" autocomplete="current-password" hint="The one you log in with: password resets go to your address, so changing it needs the password." />
        <button type="submit">Change the address</button>
      </form>

      <h2 id="developer">Developer</h2>
      {at('developer')}
      <p>API keys let programs use the API as you (header <code>Authorization: Token &lt;key&gt;</code>).</p>
      {props.newKey ? (
        <div class="notice" role="status">
          <p>
            Your new key <strong>{props.newKey.name}</strong>. Copy it now: it is not shown again.
          </p>
          <p class="copy-row">
            <label for="new-key">New API key</label>
            <input id="new-key" type="text" readonly value={props.newKey.key} />
            <button type="button" data-copy="new-key">
              Copy
            </button>
          </p>
        </div>
      ) : null}
      {props.confirmRevoke ? (
        <form method="post" action="/settings/api-keys/revoke#developer" class="notice confirm" aria-labelledby="confirm-revoke">
          <CsrfField token={props.csrf} />
          <input type="hidden" name="prefix" value={props.confirmRevoke.prefix} />
          <input type="hidden" name="confirm" value="1" />
          <p id="confirm-revoke">
            Revoke the key <strong>{props.confirmRevoke.name || `mps_${props.confirmRevoke.prefix}_…`}</strong> (<code>mps_{props.confirmRevoke.prefix}_…</code>)? Programs using it are refused from then on, and a revoked key cannot be brought back.
          </p>
          <p>
            <button type="submit" class="danger">
              Revoke it
            </button>{' '}
            <a href="/settings#developer">Keep it</a>
          </p>
        </form>
      ) : null}
      {props.apiKeys.length > 0 ? (
        <div class="table-scroll">
        <table>
          <caption>Your API keys</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.apiKeys.map((key) => (
              <tr key={key.prefix}>
                <td>
                  <code>mps_{key.prefix}_…</code>
                </td>
                <td>{key.name}</td>
                <td>{day(key.createdAt)}</td>
                <td>{key.lastUsedAt ? day(key.lastUsedAt) : 'never'}</td>
                <td>
                  <form method="post" action="/settings/api-keys/revoke#developer">
                    <CsrfField token={props.csrf} />
                    <input type="hidden" name="prefix" value={key.prefix} />
                    <button type="submit" class="secondary" aria-label={`Revoke the key ${key.name || key.prefix}`}>
                      Revoke
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      ) : (
        <p>You have no API keys.</p>
      )}
      <form method="post" action="/settings/api-keys#developer">
        <CsrfField token={props.csrf} />
        <Field label="Name of a new key" name="name" hint="What uses it, for example “nightly import”." />
        <button type="submit">Create an API key</button>
      </form>

      <h2 id="provider-keys">Map provider keys</h2>
      {at('provider-keys')}
      <p>
        Commercial basemaps draw your maps with your own key of their provider. Without one, a map on a commercial basemap that gets heavy traffic is shown on the Classic
        basemap for 24 hours.
      </p>
      {props.providerKeys.map((provider) => (
        <div class="provider" key={provider.kind}>
          <form method="post" action="/settings/provider-keys#provider-keys">
            <CsrfField token={props.csrf} />
            <input type="hidden" name="kind" value={provider.kind} />
            <p class="field">
              <label for={`key-${provider.kind}`}>{provider.label}</label>
              <input id={`key-${provider.kind}`} name="key" type="text" autocomplete="off" spellcheck={false} required aria-describedby={`help-${provider.kind}`} />
              <small id={`help-${provider.kind}`} class="hint">
                {provider.help} {provider.masked ? `Saved: ${provider.masked}` : 'None saved.'}
              </small>
            </p>
            <button type="submit" aria-label={`Save the ${provider.label} key`}>
              Save
            </button>
          </form>
          {provider.masked ? (
            <form method="post" action="/settings/provider-keys/remove#provider-keys">
              <CsrfField token={props.csrf} />
              <input type="hidden" name="kind" value={provider.kind} />
              <button type="submit" class="secondary" aria-label={`Remove the ${provider.label} key`}>
                Remove
              </button>
            </form>
          ) : null}
        </div>
      ))}
      <script src="/assets/settings.js" defer></script>
      <h2 id="webhooks">Webhooks</h2>
      {at('webhooks')}
      <p>
        Endpoints of yours that are sent a signed JSON POST when your maps change (see the API documentation: the <code>Webhook-Signature</code> header). Each delivery is
        retried for 24 hours; an endpoint failing that long is switched off and you get an e-mail.
      </p>
      {props.newWebhook ? (
        <p class="notice" id="new-webhook">
          The signing secret of <code>{props.newWebhook.url}</code>, shown only now: <code>{props.newWebhook.secret}</code>
        </p>
      ) : null}
      {props.webhooks.length === 0 ? <p>You have no webhook endpoints.</p> : null}
      {props.webhooks.map((hook) => (
        <div class="table-scroll" key={hook.id}>
          <table>
            <caption>
              <code>{hook.url}</code> — {hook.scope}: {hook.events.join(', ')} {hook.enabled ? null : <span class="badge warn">switched off</span>}
            </caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">When</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {hook.deliveries.length === 0 ? (
                <tr>
                  <td colSpan={5}>No deliveries yet.</td>
                </tr>
              ) : (
                hook.deliveries.map((delivery, index) => (
                  <tr key={index}>
                    <td>{delivery.eventType}</td>
                    <td>{delivery.createdAt.replace('T', ' ').slice(0, 19)}</td>
                    <td>{delivery.status}</td>
                    <td>{delivery.attempts}</td>
                    <td>{delivery.responseCode !== null ? `HTTP ${delivery.responseCode}` : (delivery.error ?? '—')}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
          <form method="post" action="/settings/webhooks/delete#webhooks">
            <CsrfField token={props.csrf} />
            <input type="hidden" name="id" value={String(hook.id)} />
            <button type="submit" class="secondary" aria-label={`Delete the endpoint ${hook.url}`}>
              Delete
            </button>
          </form>
        </div>
      ))}
      <h3>Add an endpoint</h3>
      <form method="post" action="/settings/webhooks#webhooks">
        <CsrfField token={props.csrf} />
        <Field label="Endpoint URL" name="webhook_url" hint="An https address that answers 2xx within 10 seconds." />
        <Field label="Map number" name="webhook_map" required={false} hint="Leave empty for all your maps." />
        <fieldset>
          <legend>Events</legend>
          {props.webhookEvents.map((event) => (
            <p key={event}>
              <input type="checkbox" id={`event-${event}`} name="events" value={event} checked />{' '}
              <label for={`event-${event}`}>{event}</label>
            </p>
          ))}
        </fieldset>
        <button type="submit">Add the endpoint</button>
      </form>
    </section>
  );
}
