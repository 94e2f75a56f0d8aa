// The start page: what the service is and the way in.
export function HomePage(props: { signedIn: boolean }) {
  return (
    <section class="card wide">
      <h1>Make maps and share them</h1>
      <p>Draw points, lines and areas, import KML, GPX, GeoJSON, CSV or spreadsheets, and publish the map or embed it anywhere.</p>
      {props.signedIn ? (
        <p>
          <a class="button" href="/settings">
            Your settings and API keys
          </a>
        </p>
      ) : (
        <p>
          <a class="button" href="/signup">
            Sign up
          </a>{' '}
          or <a href="/login">log in</a>
        </p>
      )}
    </section>
  );
}
