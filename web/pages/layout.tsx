// The frame of every server-rendered page: header with the account links, the page's content,
// the stylesheet. Rendered by preact-render-to-string (text is escaped by default).
import type { ComponentChildren } from 'preact';
import type { MapPageConfig } from '../../lib/mapPageConfig.js';
import { MapConfigScript, MapPreloads } from './mapConfigScript.js';

export interface Viewer {
  username: string;
}

export interface LayoutProps {
  title: string;
  viewer: Viewer | undefined;
  csrf: string;
  /** Extra stylesheets and module scripts of the page (the map front end). */
  styles?: string[];
  scripts?: string[];
  /** The oEmbed discovery link of a map page. */
  oembed?: string | undefined;
  /** A map page's front-end configuration, in the head (lib/mapPageConfig.ts). */
  mapConfig?: MapPageConfig | undefined;
  children: ComponentChildren;
}

export function Layout({ title, viewer, csrf, styles = [], scripts = [], oembed, mapConfig, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Maps`}</title>
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/site.css" />
        {styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {oembed ? <link rel="alternate" type="application/json+oembed" href={oembed} title={title} /> : null}
        {mapConfig ? <MapConfigScript config={mapConfig} /> : null}
        {mapConfig ? <MapPreloads config={mapConfig} /> : null}
        {scripts.map((src) => (
          <script key={src} type="module" src={src} />
        ))}
      </head>
      <body>
        <a class="skip-link" href="#content">
          Skip to content
        </a>
        <header class="site-header">
          <a class="brand" href="/">
            Maps
          </a>
          <nav aria-label="Main">
            <a href="/explore">Explore</a>
            {viewer ? (
              <>
                <a href="/maps">My maps</a>
                <a href="/settings">{viewer.username}</a>
                <form method="post" action="/logout" class="inline">
                  <input type="hidden" name="_csrf" value={csrf} />
                  <button type="submit" class="link">
                    Log out
                  </button>
                </form>
              </>
            ) : (
              <>
                <a href="/login">Log in</a>
                <a href="/signup" class="button">
                  Sign up
                </a>
              </>
            )}
          </nav>
        </header>
        <main id="content" tabindex={-1}>
          {children}
        </main>
      </body>
    </html>
  );
}

export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name="_csrf" value={token} />;
}

export interface FieldProps {
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password';
  value?: string;
  autocomplete?: 'username' | 'email' | 'new-password' | 'current-password';
  hint?: string;
  required?: boolean;
  /** What is wrong with what was typed: shown under the field, tied to it, the field marked invalid. */
  error?: string | undefined;
}

/** A labelled input; the hint is tied to it for screen readers. */
export function Field({ label, name, type = 'text', value, autocomplete, hint, required = true, error }: FieldProps) {
  const hintId = hint ? `${name}-hint` : undefined;
  const errorId = error ? `${name}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <p class="field">
      <label for={name}>{label}</label>
      {/* Preact 11 types each input type as its own case; a union of three does not narrow. */}
      <input id={name} name={name} type={type as 'text'} value={value} autocomplete={autocomplete} required={required} aria-describedby={describedBy} {...(error ? { 'aria-invalid': 'true' } : {})} />
      {error ? (
        <small id={errorId} class="field-error">
          {error}
        </small>
      ) : null}
      {hint ? (
        <small id={hintId} class="hint">
          {hint}
        </small>
      ) : null}
    </p>
  );
}

/** A message above a form: an error (announced) or a notice. */
export function Notice({ error, notice }: { error?: string | undefined; notice?: string | undefined }) {
  if (error) {
    return (
      <p class="notice error" role="alert">
        {error}
      </p>
    );
  }
  return notice ? (
    <p class="notice" role="status">
      {notice}
    </p>
  ) : null;
}
