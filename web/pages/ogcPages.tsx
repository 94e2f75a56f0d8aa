// The HTML pages of a map's OGC API – Features service (api/web/ogcRoutes.ts), for people who
// open its addresses in a browser: what the JSON says, with links to follow, and the JSON itself.
import type { ComponentChildren } from 'preact';

export interface OgcLink {
  href: string;
  rel: string;
  type?: string;
  title?: string;
}

export interface OgcPageProps {
  heading: string;
  intro?: string;
  /** Where this page sits: the service's pages above it. */
  trail: { href: string; text: string }[];
  links: OgcLink[];
  children?: ComponentChildren;
}

export function OgcPage(props: OgcPageProps) {
  return (
    <section class="card">
      <nav aria-label="Breadcrumb">
        <ol class="ogc-trail">
          {props.trail.map((step) => (
            <li key={step.href}>
              <a href={step.href}>{step.text}</a>
            </li>
          ))}
        </ol>
      </nav>
      <h1>{props.heading}</h1>
      {props.intro ? <p>{props.intro}</p> : null}
      {props.children}
      <h2>Links</h2>
      <ul>
        {props.links.map((link) => (
          <li key={`${link.rel} ${link.href}`}>
            <a href={link.href}>{link.title ?? link.rel}</a> ({link.rel}
            {link.type ? `, ${link.type}` : ''})
          </li>
        ))}
      </ul>
    </section>
  );
}

export interface OgcCollectionRow {
  id: string;
  title: string;
  href: string;
  extent: string;
}

export function OgcCollectionList(props: { collections: OgcCollectionRow[] }) {
  return (
    <table>
      <caption>Collections</caption>
      <thead>
        <tr>
          <th scope="col">Collection</th>
          <th scope="col">Id</th>
          <th scope="col">Extent</th>
        </tr>
      </thead>
      <tbody>
        {props.collections.map((row) => (
          <tr key={row.id}>
            <td>
              <a href={row.href}>{row.title}</a>
            </td>
            <td>{row.id}</td>
            <td>{row.extent}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface OgcFeatureRow {
  id: string;
  href: string;
  title: string;
  geometry: string;
}

export function OgcFeatureTable(props: { caption: string; features: OgcFeatureRow[] }) {
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Id</th>
          <th scope="col">Title</th>
          <th scope="col">Geometry</th>
        </tr>
      </thead>
      <tbody>
        {props.features.map((row) => (
          <tr key={row.id}>
            <td>
              <a href={row.href}>{row.id}</a>
            </td>
            <td>{row.title}</td>
            <td>{row.geometry}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function OgcProperties(props: { properties: [string, string][] }) {
  return (
    <table>
      <caption>Properties</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {props.properties.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function OgcList(props: { caption: string; items: string[] }) {
  return (
    <>
      <h2>{props.caption}</h2>
      <ul>
        {props.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </>
  );
}
