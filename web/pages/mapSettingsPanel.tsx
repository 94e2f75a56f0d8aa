// The map page's "Map settings" section (its address with ?settings=1): one form, posted to
// /maps/{id}/settings, that works without JavaScript. Its owner sets the title, short name,
// Markdown description (previewed by the server), basemap (the catalogue with small pictures;
// a commercial one says which provider key it needs and links to Settings when the owner has
// none), who sees the map (public, unlisted, private, or the people named) and who edits it.
// An editor gets the title, description and basemap only (what map/update lets editors change).
// A refused field shows its message next to it, with what was typed kept.
import { CsrfField, Notice } from './layout.js';

/** The form's values, as typed (members as one line of names). */
export interface MapSettingsValues {
  title: string;
  short_name: string;
  description: string;
  basemap: string;
  visibility: string;
  collaborate: boolean;
  editor_users: string;
  viewer_users: string;
}

export type MapSettingsField = keyof MapSettingsValues;

export interface BasemapChoice {
  id: string;
  name: string;
  /** A small picture of it. */
  preview: string;
  /** A commercial basemap: the kind of provider key it needs, and whether the owner has saved one. */
  key?: { label: string; saved: boolean };
}

export interface MapSettingsProps {
  /** Where the form posts. */
  action: string;
  csrf: string;
  /** The owner changes everything; an editor the title, description and basemap. */
  role: 'owner' | 'editor';
  owner: string;
  /** The map's page without the settings open. */
  closeHref: string;
  values: MapSettingsValues;
  errors: Partial<Record<MapSettingsField, string>>;
  basemaps: BasemapChoice[];
  /** The description as the page would show it (sanitised HTML), after Preview. */
  descriptionPreview?: string;
  notice?: string;
  error?: string;
}

const VISIBILITIES = [
  { value: 'public', label: 'Public', hint: 'anyone with the link, and listed on Explore' },
  { value: 'unlisted', label: 'Unlisted', hint: 'only people given its link (see Share); not listed; a new link each time it is made unlisted' },
  { value: 'private', label: 'Private', hint: 'only you, and the editors while collaboration is on' },
  { value: 'select', label: 'Only the people I name', hint: 'the viewers below, logged in' },
] as const;

/** An input's error, tied to it for screen readers (aria-describedby). */
function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <small id={`${id}-error`} class="field-error">
      {error}
    </small>
  ) : null;
}

/** The aria attributes of an input with an optional hint and error. */
function described(id: string, hint: boolean, error: string | undefined) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { 'aria-describedby': ids || undefined, 'aria-invalid': error ? ('true' as const) : undefined };
}

/** The first refused text field takes the focus when the page comes back (the browser scrolls to it). */
const FOCUS_ORDER: MapSettingsField[] = ['title', 'short_name', 'description', 'viewer_users', 'editor_users'];
const firstRefused = (errors: MapSettingsProps['errors']) => FOCUS_ORDER.find((field) => errors[field]);

function TextField(props: { id: string; name: MapSettingsField; label: string; value: string; hint?: string; error: string | undefined; focus: boolean; required?: boolean }) {
  return (
    <p class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type="text"
        value={props.value}
        required={props.required}
        autofocus={props.focus}
        {...described(props.id, !!props.hint, props.error)}
      />
      <FieldError id={props.id} error={props.error} />
      {props.hint ? (
        <small id={`${props.id}-hint`} class="hint">
          {props.hint}
        </small>
      ) : null}
    </p>
  );
}

function BasemapChoices({ basemaps, value, error, role }: { basemaps: BasemapChoice[]; value: string; error: string | undefined; role: MapSettingsProps['role'] }) {
  const whose = role === 'owner' ? 'your' : "the owner's";
  return (
    <fieldset class="settings-group" {...described('settings-basemap', false, error)}>
      <legend>Basemap</legend>
      <FieldError id="settings-basemap" error={error} />
      <ul class="basemap-choices">
        {basemaps.map((basemap) => (
          <li key={basemap.id} class="basemap-choice">
            <input id={`settings-basemap-${basemap.id}`} type="radio" name="basemap" value={basemap.id} checked={basemap.id === value} />
            <label for={`settings-basemap-${basemap.id}`}>
              <img src={basemap.preview} width={128} height={80} alt="" loading="lazy" />
              <span>{basemap.name}</span>
            </label>
            {basemap.key ? (
              <small class="hint">
                {basemap.key.saved ? (
                  `Uses ${whose} ${basemap.key.label} key.`
                ) : role === 'owner' ? (
                  <>
                    Needs your {basemap.key.label} key: <a href="/settings#provider-keys">add it in Settings</a>.
                  </>
                ) : (
                  `Needs the owner's ${basemap.key.label} key.`
                )}
              </small>
            ) : null}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

function Sharing({ values, errors, owner, focus }: { values: MapSettingsValues; errors: MapSettingsProps['errors']; owner: string; focus: MapSettingsField | undefined }) {
  return (
    <>
      <fieldset class="settings-group" {...described('settings-visibility', false, errors.visibility)}>
        <legend>Who can see this map</legend>
        <FieldError id="settings-visibility" error={errors.visibility} />
        {VISIBILITIES.map((option) => (
          <p key={option.value} class="field radio">
            <input
              id={`settings-visibility-${option.value}`}
              type="radio"
              name="visibility"
              value={option.value}
              checked={values.visibility === option.value}
              aria-describedby={`settings-visibility-${option.value}-hint`}
            />
            <label for={`settings-visibility-${option.value}`}>{option.label}</label>
            <small id={`settings-visibility-${option.value}-hint`} class="hint">
              {option.hint}
            </small>
          </p>
        ))}
        <TextField
          id="settings-viewers"
          name="viewer_users"
          label="Viewers"
          value={values.viewer_users}
          hint="Usernames, separated by commas. They see the map while “Only the people I name” is chosen."
          error={errors.viewer_users}
          focus={focus === 'viewer_users'}
        />
      </fieldset>
      <fieldset class="settings-group">
        <legend>Who can edit it</legend>
        <p class="field checkbox">
          <input id="settings-collaborate" type="checkbox" name="collaborate" value="on" checked={values.collaborate} />
          <label for="settings-collaborate">Collaboration: the editors below may change this map</label>
        </p>
        <TextField
          id="settings-editors"
          name="editor_users"
          label="Editors"
          value={values.editor_users}
          hint={`Usernames, separated by commas. While collaboration is on they see and edit the map (its content, title, description and basemap); the rest stays yours, ${owner}.`}
          error={errors.editor_users}
          focus={focus === 'editor_users'}
        />
      </fieldset>
    </>
  );
}

export function MapSettingsPanel(props: MapSettingsProps) {
  const { values, errors } = props;
  const owner = props.role === 'owner';
  const focus = firstRefused(errors);
  return (
    <section id="map-settings" class="map-settings" aria-labelledby="map-settings-heading">
      <h2 id="map-settings-heading">Map settings</h2>
      <Notice error={props.error} notice={props.notice} />
      <form method="post" action={`${props.action}#map-settings`}>
        <CsrfField token={props.csrf} />
        {/* Tells the server the sharing fields were on the form: an unticked checkbox sends nothing. */}
        {owner ? <input type="hidden" name="sharing" value="1" /> : null}
        <TextField id="settings-title" name="title" label="Title" value={values.title} error={errors.title} focus={focus === 'title'} required />
        {owner ? (
          <TextField
            id="settings-short-name"
            name="short_name"
            label="Short name"
            value={values.short_name}
            hint={`The end of the map's address, /${props.owner}/…: lower-case letters, digits and hyphens (other characters become these). Old addresses lead to the new one.`}
            error={errors.short_name}
            focus={focus === 'short_name'}
            required
          />
        ) : null}
        <p class="field">
          <label for="settings-description">Description</label>
          <textarea id="settings-description" name="description" rows={6} autofocus={focus === 'description'} {...described('settings-description', true, errors.description)}>
            {values.description}
          </textarea>
          <FieldError id="settings-description" error={errors.description} />
          <small id="settings-description-hint" class="hint">
            Markdown: **bold**, *italic*, [a link](https://…), lists with “- ”.
          </small>
        </p>
        <p>
          <button type="submit" name="preview" value="1" class="secondary" formNoValidate>
            Preview the description
          </button>
        </p>
        {props.descriptionPreview !== undefined ? (
          <div class="settings-preview" role="region" aria-label="Description preview">
            {props.descriptionPreview ? <div class="description" dangerouslySetInnerHTML={{ __html: props.descriptionPreview }} /> : <p class="hint">(No description.)</p>}
          </div>
        ) : null}
        <BasemapChoices basemaps={props.basemaps} value={values.basemap} error={errors.basemap} role={props.role} />
        {owner ? (
          <Sharing values={values} errors={errors} owner={props.owner} focus={focus} />
        ) : (
          <p class="hint">Who sees and edits this map, and its address, are for its owner, {props.owner}, to change.</p>
        )}
        <p class="settings-actions">
          <button type="submit">Save settings</button> <a href={props.closeHref}>Close</a>
        </p>
      </form>
    </section>
  );
}
