// A group's path in a table's `group` column: titles from the top group down, joined by "/"
// ("Europe/France"; empty titles are left out, so "Europe//France" is the same path). A slash
// inside a title is written "\/" and a backslash "\\" ("Food\/Drink" is the one group
// "Food/Drink"), so a download re-imports to the same groups; any other backslash is itself.

/** The titles of a path, top first, each trimmed; empty titles left out. */
export function splitGroupPath(path: string): string[] {
  const titles: string[] = [];
  let title = '';
  for (let index = 0; index < path.length; index++) {
    const char = path[index]!;
    const next = path[index + 1];
    if (char === '\\' && (next === '/' || next === '\\')) {
      title += next;
      index++;
    } else if (char === '/') {
      titles.push(title);
      title = '';
    } else {
      title += char;
    }
  }
  titles.push(title);
  return titles.map((each) => each.trim()).filter((each) => each !== '');
}

/** The path of these titles (top first), with their slashes and backslashes escaped. */
export const joinGroupPath = (titles: readonly string[]): string => titles.map((title) => title.replaceAll('\\', '\\\\').replaceAll('/', '\\/')).join('/');
