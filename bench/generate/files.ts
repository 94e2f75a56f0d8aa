// Benchmark inputs of a given size in each format, in the shapes real tools write: Google
// Earth KML with shared styles, folders and ExtendedData; device GPX with tracks and
// waypoints; CSV with the spec's columns; GeoJSON points and lines.
import { fillTo, pseudoRandom } from './pseudoRandom.js';

const coord = (random: () => number) => `${(random() * 360 - 180).toFixed(6)},${(random() * 170 - 85).toFixed(6)}`;

export function kml(bytes: number): string {
  const random = pseudoRandom(1);
  const head = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document><name>Benchmark</name>
<Style id="red"><IconStyle><color>ff0000ff</color></IconStyle><LineStyle><color>ff0000ff</color><width>3</width></LineStyle></Style>
<Style id="blue"><IconStyle><color>ffff0000</color></IconStyle><LineStyle><color>ffff0000</color><width>2</width></LineStyle></Style>
<StyleMap id="pair"><Pair><key>normal</key><styleUrl>#red</styleUrl></Pair><Pair><key>highlight</key><styleUrl>#blue</styleUrl></Pair></StyleMap>
<Folder><name>Folder 0</name>`;
  const tail = '</Folder></Document></kml>\n';
  return fillTo(bytes, head, tail, (i) => {
    const folder = i > 0 && i % 1000 === 0 ? `</Folder><Folder><name>Folder ${i / 1000}</name>` : '';
    const style = ['#red', '#blue', '#pair'][i % 3];
    const data = `<ExtendedData><Data name="index"><value>${i}</value></Data><Data name="kind"><value>sample</value></Data></ExtendedData>`;
    if (i % 5 === 4) {
      const line = Array.from({ length: 20 }, () => `${coord(random)},0`).join(' ');
      return `${folder}<Placemark><name>Line ${i}</name><description><![CDATA[<b>Line</b> number ${i}]]></description><styleUrl>${style}</styleUrl>${data}<LineString><tessellate>1</tessellate><coordinates>${line}</coordinates></LineString></Placemark>\n`;
    }
    return `${folder}<Placemark><name>Place ${i}</name><description>Point number ${i}</description><styleUrl>${style}</styleUrl>${data}<Point><coordinates>${coord(random)},0</coordinates></Point></Placemark>\n`;
  });
}

export function gpx(bytes: number): string {
  const random = pseudoRandom(2);
  const head = `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Benchmark" xmlns="http://www.topografix.com/GPX/1/1">
${Array.from({ length: 200 }, (_, i) => `<wpt lat="${(random() * 170 - 85).toFixed(6)}" lon="${(random() * 360 - 180).toFixed(6)}"><ele>${(random() * 1000).toFixed(1)}</ele><time>2024-06-01T10:00:00Z</time><name>Waypoint ${i}</name><desc>A waypoint</desc></wpt>`).join('\n')}
<trk><name>Track</name><trkseg>`;
  const tail = '</trkseg></trk></gpx>\n';
  let lat = 45;
  let lon = 7;
  const start = Date.parse('2024-06-01T10:00:00Z');
  return fillTo(bytes, head, tail, (i) => {
    lat += (random() - 0.5) * 0.001;
    lon += (random() - 0.5) * 0.001;
    const segment = i > 0 && i % 5000 === 0 ? '</trkseg><trkseg>' : '';
    const time = new Date(start + i * 1000).toISOString().replace('.000', '');
    return `${segment}<trkpt lat="${lat.toFixed(7)}" lon="${lon.toFixed(7)}"><ele>${(400 + random() * 50).toFixed(1)}</ele><time>${time}</time></trkpt>\n`;
  });
}

export function csv(bytes: number): string {
  const random = pseudoRandom(3);
  const colors = ['#ff0000', '#00ff00', '#0000ff'];
  return fillTo(bytes, 'lat,lon,title,description,group,color,url\n', '', (i) => {
    const [lon, lat] = coord(random).split(',');
    return `${lat},${lon},Place ${i},"A place, number ${i}",Region ${i % 20}/Area ${i % 7},${colors[i % 3]},https://example.com/${i}\n`;
  });
}

export function geojson(bytes: number): string {
  const random = pseudoRandom(4);
  const head = '{"type":"FeatureCollection","features":[\n';
  let first = true;
  const body = fillTo(bytes - 3, head, '', (i) => {
    const [lon, lat] = coord(random).split(',');
    const geometry =
      i % 5 === 4
        ? `{"type":"LineString","coordinates":[${Array.from({ length: 10 }, () => `[${coord(random)}]`).join(',')}]}`
        : `{"type":"Point","coordinates":[${lon},${lat}]}`;
    const feature = `${first ? '' : ',\n'}{"type":"Feature","geometry":${geometry},"properties":{"title":"Place ${i}","description":"Number ${i}"}}`;
    first = false;
    return feature;
  });
  return `${body}\n]}`;
}

/** Rows of the table benchmark (XLSX), the same columns as the CSV. */
export function tableRows(count: number): (string | number)[][] {
  const random = pseudoRandom(5);
  const rows: (string | number)[][] = [['lat', 'lon', 'title', 'description', 'group', 'color', 'url']];
  for (let i = 0; i < count; i += 1) {
    rows.push([+(random() * 170 - 85).toFixed(6), +(random() * 360 - 180).toFixed(6), `Place ${i}`, `A place, number ${i}`, `Region ${i % 20}`, '#ff0000', `https://example.com/${i}`]);
  }
  return rows;
}

/** One feature whose geometry is a MultiPolygon of many small polygons (a detailed coastline's islands). */
export function multiPolygon(bytes: number): string {
  const random = pseudoRandom(6);
  const head = '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"title":"Islands"},"geometry":{"type":"MultiPolygon","coordinates":[\n';
  let first = true;
  const body = fillTo(bytes - 6, head, '', () => {
    const x = random() * 350 - 175;
    const y = random() * 160 - 80;
    const ring = [[x, y], [x + 0.01, y], [x + 0.01, y + 0.01], [x, y + 0.01], [x, y]].map(([a, b]) => `[${a!.toFixed(5)},${b!.toFixed(5)}]`);
    const polygon = `${first ? '' : ','}[[${ring.join(',')}]]`;
    first = false;
    return polygon;
  });
  return `${body}]}}]}`;
}
