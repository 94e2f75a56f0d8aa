// The map settings form's fields as the arguments of api/mapSettings.ts, checked by the same zod
// schemas as map/update's (lengths, the one rule for text, the basemap catalogue) plus what a
// form needs besides: a title that is not blank, a short name with at least one letter or digit
// (the API takes any text as a preference and falls back on the title), a choice of basemap and
// visibility. Each refused field gets one message, worded for the person reading the form.
import { z } from 'zod';
import { shortNameSlug } from '../../lib/shortName.js';
import type { MapSettingsField, MapSettingsValues } from '../../web/pages/mapSettingsPanel.js';
import { MAX_MEMBERS, mapSettingsArgs, sharingArgs, type SettingsChanges } from '../mapSettings.js';
import { basemapId, shortName, title } from '../schemas.js';

/** The owner's form has every field; an editor's the title, description and basemap. */
export type SettingsRole = 'owner' | 'editor';

const CHOOSE: Partial<Record<MapSettingsField, string>> = {
  basemap: 'Choose one of the basemaps.',
  visibility: 'Choose who can see the map.',
  title: 'Give the map a title.',
  short_name: 'Give the map a short name: the end of its address.',
};

const editorForm = z.object({
  title: title.refine((value) => value.trim() !== '', CHOOSE.title),
  description: mapSettingsArgs.description.unwrap(),
  basemap: basemapId,
});

const ownerForm = editorForm.extend({
  short_name: shortName.refine((value) => shortNameSlug(value) !== '', 'A short name needs at least one letter or digit (a–z, 0–9): it is the end of the map\'s address.'),
  visibility: sharingArgs.visibility.unwrap(),
  collaborate: sharingArgs.collaborate.unwrap(),
  editor_users: sharingArgs.editor_users.unwrap(),
  viewer_users: sharingArgs.viewer_users.unwrap(),
});

/** Names as typed in one field: separated by commas, semicolons or spaces, an @ before one allowed; each once. */
export function namesOf(text: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const name = part.replace(/^@/, '');
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

/** What the form sent, as the form shows it again (browsers send a textarea's line breaks as CR LF). */
export function valuesOf(fields: Record<string, string>): MapSettingsValues {
  return {
    title: fields.title ?? '',
    short_name: fields.short_name ?? '',
    description: (fields.description ?? '').replace(/\r\n?/g, '\n'),
    basemap: fields.basemap ?? '',
    visibility: fields.visibility ?? '',
    collaborate: fields.collaborate === 'on',
    editor_users: namesOf(fields.editor_users ?? '').join(', '),
    viewer_users: namesOf(fields.viewer_users ?? '').join(', '),
  };
}

const sentence = (text: string): string => {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?)]$/.test(capital) ? capital : `${capital}.`;
};

function messageOf(issue: z.core.$ZodIssue, field: MapSettingsField, input: Record<string, unknown>): string {
  const index = issue.path[1];
  if (typeof index === 'number') {
    const name = (input[field] as string[])[index];
    return `"${name}" is not a username: ${issue.message}.`;
  }
  if (issue.code === 'too_big') {
    if (issue.origin === 'array') return `At most ${MAX_MEMBERS} people.`;
    const length = String(input[field] ?? '').length;
    return `At most ${Number(issue.maximum).toLocaleString('en')} characters (this has ${length.toLocaleString('en')}).`;
  }
  if (issue.code === 'invalid_value' || issue.code === 'invalid_type') return CHOOSE[field] ?? sentence(issue.message);
  return sentence(issue.message);
}

export type SettingsFormCheck =
  | { ok: true; changes: SettingsChanges }
  | { ok: false; errors: Partial<Record<MapSettingsField, string>> };

/** The changes the form asks for, or a message for each refused field. */
export function checkSettingsForm(values: MapSettingsValues, role: SettingsRole): SettingsFormCheck {
  const input: Record<string, unknown> = {
    title: values.title,
    description: values.description,
    basemap: values.basemap || undefined,
    ...(role === 'owner'
      ? {
          short_name: values.short_name,
          visibility: values.visibility || undefined,
          collaborate: values.collaborate,
          editor_users: namesOf(values.editor_users),
          viewer_users: namesOf(values.viewer_users),
        }
      : {}),
  };
  const parsed = (role === 'owner' ? ownerForm : editorForm).safeParse(input);
  if (!parsed.success) {
    const errors: Partial<Record<MapSettingsField, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as MapSettingsField;
      errors[field] ??= messageOf(issue, field, input);
    }
    return { ok: false, errors };
  }
  const data = parsed.data as z.infer<typeof ownerForm>;
  return {
    ok: true,
    changes: {
      title: data.title,
      description: data.description,
      basemap: data.basemap,
      ...(role === 'owner'
        ? {
            shortName: data.short_name,
            visibility: data.visibility,
            collaborate: data.collaborate,
            editorUsers: data.editor_users,
            viewerUsers: data.viewer_users,
          }
        : {}),
    },
  };
}
