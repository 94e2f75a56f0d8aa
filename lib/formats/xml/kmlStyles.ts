// KML styles → feature properties: inline styles, shared ones (<Style id> through styleUrl
// "#id", also defined after their use) and StyleMaps (the "normal" pair, followed through up to
// 8 links) give `color` (#rrggbb) from IconStyle (points), LineStyle (lines), PolyStyle or else
// LineStyle (polygons), `stroke-width` from LineStyle width (lines and polygons), and, inside a
// KMZ, `marker_id` from the IconStyle icon; a point whose IconStyle scale is 0 is a text label
// (../kmlTextLabels.ts).
import { applyTextLabelStyle, type LabelStyleData } from '../kmlTextLabels.js';
import { kmlColorToHex } from './color.js';
import { LINE, POINT } from './kmlGeometry.js';
import { parseNumber } from './numbers.js';

export interface StyleData extends LabelStyleData {
  iconHref?: string;
  lineColor?: string;
  lineWidth?: number;
  polyColor?: string;
}

interface StyleMapData {
  normalUrl?: string;
  normalStyle?: StyleData;
}

interface PairData {
  key?: string;
  url?: string;
  style?: StyleData;
}

/** A feature's properties and the style it names or holds, to be applied once resolvable. */
export interface StyledFeature {
  properties: Record<string, unknown>;
  url: string | undefined;
  style: StyleData | undefined;
  /** The most complex kind of its geometry (kmlGeometry.ts). */
  kind: number;
}

const MAX_STYLE_LINKS = 8;

/** The styles of one KML file: read as their elements come, resolved for features. */
export class KmlStyles {
  private readonly styles = new Map<string, StyleData>();
  private readonly styleMaps = new Map<string, StyleMapData>();
  private readonly resolved = new Map<string, StyleData | undefined>();

  // Styles being read.
  private style: StyleData | null = null;
  private styleDepth = 0;
  private styleId: string | undefined;
  private styleMap: StyleMapData | null = null;
  private styleMapId: string | undefined;
  private pair: PairData | null = null;

  /** A style element starts. */
  open(name: string, attributes: Readonly<Record<string, string>>, depth: number): void {
    switch (name) {
      case 'Style':
        if (this.style === null) {
          this.style = {};
          this.styleDepth = depth;
          this.styleId = attributes.id;
        }
        return;
      case 'StyleMap':
        this.styleMap = {};
        this.styleMapId = attributes.id;
        return;
      case 'Pair':
        if (this.styleMap !== null) this.pair = {};
        return;
      default:
        return;
    }
  }

  /**
   * A style element ends (parent: the element around it). A <Style> inside a Placemark is that
   * placemark's own: it is returned for the caller to keep.
   */
  close(name: string, depth: number, parent: string | undefined): StyleData | undefined {
    switch (name) {
      case 'Style': {
        if (this.style === null || depth !== this.styleDepth) return undefined;
        const style = this.style;
        const id = this.styleId;
        this.style = null;
        this.styleId = undefined;
        if (parent === 'Placemark') return style;
        if (parent === 'Pair') {
          if (this.pair !== null) this.pair.style = style;
        } else if (id !== undefined) {
          this.styles.set(id, style);
        }
        return undefined;
      }
      case 'StyleMap':
        if (this.styleMap !== null && this.styleMapId !== undefined) this.styleMaps.set(this.styleMapId, this.styleMap);
        this.styleMap = null;
        return undefined;
      case 'Pair': {
        const pair = this.pair;
        this.pair = null;
        if (pair !== null && this.styleMap !== null && pair.key?.trim() === 'normal') {
          if (pair.url !== undefined) this.styleMap.normalUrl = pair.url;
          if (pair.style !== undefined) this.styleMap.normalStyle = pair.style;
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /** The text of an element inside a style (parent, grandparent: the elements around it); false when it is not a style's. */
  text(name: string, raw: string, parent: string | undefined, grandparent: string | undefined): boolean {
    switch (name) {
      case 'styleUrl':
        if (parent !== 'Pair' || this.pair === null) return false;
        if (raw.trim() !== '') this.pair.url = raw.trim();
        return true;
      case 'key':
        if (parent === 'Pair' && this.pair !== null) this.pair.key = raw;
        return true;
      case 'color': {
        const style = this.style;
        const color = style === null ? undefined : kmlColorToHex(raw);
        if (style === null || color === undefined) return true;
        if (parent === 'IconStyle') style.iconColor = color;
        else if (parent === 'LineStyle') style.lineColor = color;
        else if (parent === 'PolyStyle') style.polyColor = color;
        else if (parent === 'LabelStyle') style.labelColor = color;
        return true;
      }
      case 'scale': {
        const scale = parseNumber(raw);
        if (this.style === null || !Number.isFinite(scale) || scale < 0) return true;
        if (parent === 'IconStyle') this.style.iconScale = scale;
        else if (parent === 'LabelStyle') this.style.labelScale = scale;
        return true;
      }
      case 'width':
        if (parent === 'LineStyle' && this.style !== null) {
          const width = parseNumber(raw);
          if (Number.isFinite(width) && width >= 0) this.style.lineWidth = width;
        }
        return true;
      case 'href':
        if (parent === 'Icon' && grandparent === 'IconStyle' && this.style !== null) {
          const href = raw.trim();
          if (href !== '') this.style.iconHref = href;
        }
        return true;
      default:
        return false;
    }
  }

  /** Sets the feature's style properties; `marker` finds an icon's marker (in a KMZ). */
  apply(item: StyledFeature, marker?: (href: string) => string | undefined): void {
    let base: StyleData | undefined;
    if (item.url !== undefined) {
      if (this.resolved.has(item.url)) {
        base = this.resolved.get(item.url);
      } else {
        base = this.resolveUrl(item.url, 0);
        this.resolved.set(item.url, base);
      }
    }
    const style = item.style === undefined ? base : base === undefined ? item.style : { ...base, ...item.style };
    if (style === undefined) return;
    const properties = item.properties;
    if (item.kind === POINT && applyTextLabelStyle(properties, style)) return;
    const color = item.kind === POINT ? style.iconColor : item.kind === LINE ? style.lineColor : (style.polyColor ?? style.lineColor);
    if (color !== undefined) properties.color = color;
    if (item.kind !== POINT && style.lineWidth !== undefined) properties['stroke-width'] = style.lineWidth;
    if (item.kind === POINT && style.iconHref !== undefined && marker !== undefined) {
      const id = marker(style.iconHref);
      if (id !== undefined) properties.marker_id = id;
    }
  }

  /** True when every style the url leads to is defined already (a chain too long counts as done). */
  isResolvable(url: string | undefined, links = 0): boolean {
    if (url === undefined || links > MAX_STYLE_LINKS) return true;
    const hash = url.indexOf('#');
    const id = hash === -1 ? url : url.slice(hash + 1);
    if (this.styles.has(id)) return true;
    const map = this.styleMaps.get(id);
    return map !== undefined && this.isResolvable(map.normalUrl, links + 1);
  }

  private resolveUrl(url: string, links: number): StyleData | undefined {
    if (links > MAX_STYLE_LINKS) return undefined;
    const hash = url.indexOf('#');
    // "#id" (also "file.kml#id": the fragment is looked up here; nothing is ever fetched).
    const id = hash === -1 ? url : url.slice(hash + 1);
    const style = this.styles.get(id);
    if (style !== undefined) return style;
    const map = this.styleMaps.get(id);
    if (map === undefined) return undefined;
    const base = map.normalUrl === undefined ? undefined : this.resolveUrl(map.normalUrl, links + 1);
    if (map.normalStyle === undefined) return base;
    return base === undefined ? map.normalStyle : { ...base, ...map.normalStyle };
  }
}
