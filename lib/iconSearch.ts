// Finding a built-in (Maki) icon by its name or by the words people use for it ("coffee" → cafe,
// "wc" → toilet): the editor's icon picker. Maki 8 ships no tags, so the words are ours, short.
// Pure (no Node, no DOM): the browser bundle and the tests use the same function.

/** Words people use → the icons they mean (each an icon name of Maki 8). */
export const ICON_WORDS: Readonly<Record<string, readonly string[]>> = {
  coffee: ['cafe', 'teahouse'], espresso: ['cafe'], tea: ['teahouse', 'cafe'],
  food: ['restaurant', 'fast-food', 'grocery'], eat: ['restaurant', 'fast-food'], dinner: ['restaurant'], lunch: ['restaurant', 'picnic-site'],
  burger: ['fast-food'], pizza: ['restaurant-pizza'], sushi: ['restaurant-sushi'], noodles: ['restaurant-noodle'], fish: ['restaurant-seafood', 'aquarium'],
  pub: ['bar', 'beer'], drink: ['bar', 'beer', 'drinking-water'], wine: ['alcohol-shop', 'bar'], cocktail: ['bar'], club: ['nightclub'],
  bread: ['bakery'], cake: ['bakery', 'confectionery'], sweets: ['confectionery', 'ice-cream'], supermarket: ['grocery', 'convenience'], groceries: ['grocery'],
  'bus stop': ['bus'], coach: ['bus'], train: ['rail'], station: ['rail', 'rail-metro', 'bus'], metro: ['rail-metro'], subway: ['rail-metro'], underground: ['rail-metro'], tram: ['rail-light'],
  plane: ['airport'], flight: ['airport'], boat: ['ferry', 'harbor'], port: ['harbor', 'ferry'], bike: ['bicycle', 'bicycle-share'], cycling: ['bicycle', 'racetrack-cycling'],
  cab: ['taxi'], petrol: ['fuel'], gas: ['fuel'], 'gas station': ['fuel'], ev: ['charging-station'], garage: ['car-repair', 'parking-garage'], 'car park': ['parking', 'parking-garage'], park: ['park', 'parking'],
  hospital: ['hospital'], doctor: ['doctor', 'hospital'], clinic: ['doctor', 'hospital'], medical: ['hospital', 'doctor', 'pharmacy'], chemist: ['pharmacy'], drugstore: ['pharmacy'], vet: ['veterinary'], teeth: ['dentist'], aed: ['defibrillator'],
  toilets: ['toilet'], wc: ['toilet'], restroom: ['toilet'], bathroom: ['toilet'], loo: ['toilet'], washroom: ['toilet'],
  hotel: ['lodging'], motel: ['lodging'], hostel: ['lodging'], sleep: ['lodging', 'campsite'], bed: ['lodging'], inn: ['lodging'], camping: ['campsite'], tent: ['campsite'],
  church: ['religious-christian', 'place-of-worship'], mosque: ['religious-muslim'], synagogue: ['religious-jewish'], temple: ['religious-buddhist', 'place-of-worship'], shrine: ['religious-shinto'], worship: ['place-of-worship'],
  school: ['school'], university: ['college'], books: ['library'], mail: ['post'], 'post office': ['post'], letter: ['post'], money: ['bank'], atm: ['bank'], cash: ['bank'],
  police: ['police'], fire: ['fire-station'], emergency: ['hospital', 'emergency-phone', 'defibrillator'], danger: ['danger', 'caution'], warning: ['caution', 'danger'],
  info: ['information'], tourist: ['information', 'attraction'], sight: ['attraction', 'viewpoint'], view: ['viewpoint', 'observation-tower'], photo: ['viewpoint', 'attraction'],
  movie: ['cinema'], film: ['cinema'], theater: ['theatre'], concert: ['music'], art: ['art-gallery'], gallery: ['art-gallery'], history: ['historic', 'museum', 'monument'],
  beach: ['beach'], sea: ['beach', 'harbor'], swim: ['swimming'], pool: ['swimming'], gym: ['fitness-centre'], fitness: ['fitness-centre'], football: ['soccer', 'american-football'], sport: ['pitch', 'stadium'],
  playground: ['playground'], kids: ['playground'], children: ['playground', 'school'], dog: ['dog-park', 'veterinary'], animals: ['zoo', 'animal-shelter'], horse: ['horse-riding', 'racetrack-horse'],
  picnic: ['picnic-site'], bbq: ['bbq', 'restaurant-bbq'], barbecue: ['bbq', 'restaurant-bbq'], mountain: ['mountain'], peak: ['mountain'], hill: ['mountain'], lake: ['water'], river: ['water'], forest: ['park', 'natural'], tree: ['park', 'natural'],
  house: ['home'], home: ['home'], office: ['commercial', 'building'], factory: ['industry'], shopping: ['shop', 'clothing-store', 'grocery'], store: ['shop'], clothes: ['clothing-store'], shoes: ['shoe'], flowers: ['florist', 'garden'], haircut: ['hairdresser'], barber: ['hairdresser'],
  wifi: ['communications-tower'], phone: ['telephone', 'mobile-phone'], accessible: ['wheelchair'], disabled: ['wheelchair'], luggage: ['suitcase'], recycle: ['recycling'], bin: ['waste-basket'], trash: ['waste-basket'], water: ['drinking-water', 'water'],
  pin: ['marker'], point: ['marker', 'circle'], favourite: ['star', 'heart'], favorite: ['star', 'heart'], love: ['heart'],
};

const normal = (text: string) => text.trim().toLowerCase().replace(/[_\s]+/g, ' ');

/**
 * The icons of `names` matching `query`, best first: the name itself, a name starting with it, a
 * word people use for it, a name containing it, a word starting with it. Ties: the recently used
 * (`recent`, most recent first) before the rest, then by name. An empty query lists the recently
 * used first, then every icon by name.
 */
export function searchIcons(names: readonly string[], query: string, recent: readonly string[] = []): string[] {
  const known = new Set(names);
  const wanted = normal(query);
  const recency = (name: string) => {
    const at = recent.indexOf(name);
    return at < 0 ? recent.length : at;
  };
  const scores = new Map<string, number>();
  const score = (name: string, value: number) => {
    if (known.has(name) && value < (scores.get(name) ?? Infinity)) scores.set(name, value);
  };
  if (!wanted) for (const name of names) score(name, 0);
  else {
    const dashed = wanted.replace(/ /g, '-');
    for (const name of names) {
      if (name === dashed) score(name, 0);
      else if (name.startsWith(dashed)) score(name, 1);
      else if (name.includes(dashed)) score(name, 3);
    }
    for (const [word, icons] of Object.entries(ICON_WORDS)) {
      const value = word === wanted ? 2 : word.startsWith(wanted) ? 4 : undefined;
      if (value !== undefined) icons.forEach((icon, at) => score(icon, value + at / 100)); // the word's first icon first
    }
  }
  return [...scores].sort(([a, x], [b, y]) => Math.floor(x) - Math.floor(y) || recency(a) - recency(b) || x - y || a.localeCompare(b)).map(([name]) => name);
}

/** `name` put first in the recently used list (kept to `most`). */
export const usedIcon = (recent: readonly string[], name: string, most = 8): string[] => [name, ...recent.filter((each) => each !== name)].slice(0, most);
