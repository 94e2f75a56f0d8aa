// Settings: the profile (username, e-mail address and its verification, a change of address).
import { CsrfField, Field, Notice } from './layout.js';

export interface SettingsProps {
  csrf: string;
  username: string;
  email: string;
  emailVerified: boolean;
  pendingEmail: string | null;
  error?: string;
  notice?: string;
}

export function SettingsPage(props: SettingsProps) {
  return (
    <section class="card wide">
      <h1>Settings</h1>
      <Notice error={props.error} notice={props.notice} />
      <h2>Profile</h2>
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
        <form method="post" action="/settings/resend">
          <CsrfField token={props.csrf} />
          <button type="submit">Send the verification link again</button>
        </form>
      ) : null}
      <h2>Change your e-mail address</h2>
      <form method="post" action="/settings/email">
        <CsrfField token={props.csrf} />
        <Field label="New e-mail address" name="email" type="email" autocomplete="email" hint="The current address stays until you open the link we send to the new one." />
        <button type="submit">Change the address</button>
      </form>
    </section>
  );
}
