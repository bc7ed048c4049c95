import type { LiveStats } from './text-stats';

/**
 * Sections opened by a label: what a heading or a short line names (other products, related
 * stories, readers' comments, sharing) says what follows it is, whatever its markup.
 */

const HEADINGS = 'h1, h2, h3, h4, h5, h6';

/** Headings read: past these the rest stays (bounded cost, with the depth of each). */
const MAX_HEADINGS = 200;

/** A heading or line longer than this is a title or a sentence of its own, not a section's label. */
const MAX_LABEL_CHARS = 80;

/**
 * Labels that open what points elsewhere (related stories, more to read, sharing), in the
 * corpora's languages (English, German, French, Spanish, Polish, Portuguese): below any page's own
 * content.
 */
const ELSEWHERE_WORDS = [
  'related( (posts?|articles?|stories|content|reading|links|topics|threads|questions|discussions))?\\b',
  'similar (posts|articles|stories|threads|questions|topics|discussions)',
  'explore related (questions|threads|topics|discussions)',
  'recommended( for you| reading| articles| stories)?$',
  'read (more|next|also)\\b',
  'more (stories|articles|posts|news) ',
  'you (may|might) (also )?(like|enjoy|be interested)',
  'popular (posts|articles|stories)',
  '(latest|recent) (posts|articles|stories)',
  'recently viewed( products| items)?',
  'from (the|our) blog',
  'share (this|on)\\b',
  'related coverage',
  'about the author',
  'post navigation',
  'verwandte (beiträge|artikel|themen)',
  'ähnliche (beiträge|artikel)',
  'das (thema )?könnte (sie|dich) (auch )?interessieren',
  'auch interessant',
  'mehr zum thema',
  'mehr (themen|artikel|beiträge)',
  'weitere (artikel|beiträge|nachrichten|themen)( zum thema| aus (der|dem) \\S+)?',
  'lesen sie (auch|hier|mehr)\\b[^.!?]*',
  '(auch|ebenfalls) lesen',
  '(zum )?weiterlesen',
  'schon gelesen',
  'weiterführender? (links?|artikel|beiträge|informationen)',
  'die redaktion empfiehlt',
  'heute empfehlen wir',
  'empfohlene (beiträge|artikel)',
  'meist(gelesene|diskutierte|kommentierte|geteilte)( (artikel|beiträge|nachrichten))?',
  'neueste (artikel|beiträge)',
  'mehr (von|aus|zu|über)\\b[^.!?]*',
  'beiträge zum thema',
  'themen (im|in diesem) (artikel|beitrag)',
  'über (den autor|die autorin)',
  '(diesen )?(artikel|beitrag) (gefallen|teilen)\\b[^.]*',
  'möchten sie (den|diesen) (artikel|beitrag) teilen',
  'teilen mit',
  '(wie )?(bewerten|fanden) sie (diesen|den) (artikel|beitrag)',
  '(hier können sie )?(den|diesen) (artikel|beitrag) bewerten',
  'bewerten',
  '(war|ist) (dieser|der) (artikel|beitrag) hilfreich',
  '(rate this|was this) (article|post|page)( helpful)?',
  'vorschau auf den nächsten (artikel|beitrag)',
  'share',
  '(diesen (artikel|beitrag) )?teilen$',
  'articles similaires',
  'à lire aussi',
  '(\\S+ (et \\S+ )?)?sur le (même )?sujet',
  'vous aimerez aussi',
  'lire aussi',
  'czytaj (też|także|również|więcej)',
  'zobacz (też|także|również)',
  '(le|te) puede interesar',
  'lee también',
  'vea también',
  'puedes ver',
  'lea( también| más| además)?',
  'mir[ae]',
  'dowiedz się więcej',
  'veja também',
  'artículos relacionados',
  'también te puede interesar',
].join('|');

export const ELSEWHERE_LABEL = new RegExp(`^(${ELSEWHERE_WORDS})[\\s:.!?]*$`, 'i');

/**
 * A line that opens with such a label and points on ("Le puede interesar: <a>...</a>", "À lire
 * aussi » <a>...</a>"): a link to another story set among an article's paragraphs.
 */
export const ELSEWHERE_LEAD = new RegExp(`^(${ELSEWHERE_WORDS})\\s*[:»›|]`, 'i');

/**
 * What is left of a comment form ("Sie müssen sich einloggen, um sich an einer Diskussion zu
 * beteiligen", "You must be logged in to post a comment", "This site uses Akismet ..."): a line that
 * asks to log in to comment, or says how comments are filtered.
 */
export const COMMENT_FORM_LINE =
  /^(?=.*(eingeloggt|einloggen|angemeldet|anmelden|logged in|log in|sign in|registriert|registrieren|zalogowany|zaloguj|connecté|connectez|iniciar sesión|registrado))(?=.*(komment|diskussion|comment|antwort|reply|respond|beteiligen|komentarz|commentaire|comentar))|^(diese website verwendet akismet|this site uses akismet)/i;

/** Such a line is a sentence or two. */
export const MAX_COMMENT_FORM_CHARS = 200;

/** Labels that open readers' comments or the form to write one. */
export const COMMENTS_LABEL =
  /^((\d+ |keine |bisher keine |no )?(comments?|responses?|replies|kommentare?|commentaires?|comentarios?)|(leave|post|write) a (reply|comment)|(einen )?kommentare? (schreiben|hinterlassen)|kommentieren|(kommentare|comments) (geschlossen|closed|insgesamt)|schreibe einen kommentar|(laisser|laissez) un commentaire|deja un comentario)[\s:.]*$/i;

/**
 * Of those, the labels that only a comment form or an empty thread has ("Keine Kommentare", "Leave a
 * reply"): on any page, not a count or a bare "Comments" that can open a thread's replies.
 */
export const COMMENT_FORM_LABEL =
  /^((keine|bisher keine|no|noch keine) (comments?|kommentare|commentaires|comentarios)( yet)?|(leave|post|write) a (reply|comment)|(einen )?kommentar (schreiben|hinterlassen)|schreibe einen kommentar|(laisser|laissez) un commentaire|deja un comentario)\b[^.!?]{0,80}[\s:.!?)]*$/i;

const levelOf = (heading: Element) => Number(heading.tagName[1]);

/**
 * The sections `headings` open, for those `opens` accepts: the largest element under `content`
 * holding the heading and no other heading of its level or above (the cards under a "Related
 * products" heading have smaller ones). One walk up from each heading counts what each holds.
 */
function sectionsOf(headings: Element[], content: Element, opens: (heading: Element) => boolean): Element[] {
  // Per ancestor, how many headings of each level (index 1 to 6) it holds.
  const held = new Map<Element, number[]>();
  for (const heading of headings)
    for (let at = heading.parentElement; at && at !== content; at = at.parentElement) {
      const counts = held.get(at) ?? new Array<number>(7).fill(0);
      counts[levelOf(heading)]++;
      held.set(at, counts);
    }
  const peersIn = (element: Element, level: number) =>
    (held.get(element) ?? []).slice(1, level + 1).reduce((sum, count) => sum + count, 0);
  return headings.filter(opens).map((heading) => {
    let section = heading;
    for (
      let at = heading.parentElement;
      at && at !== content && peersIn(at, levelOf(heading)) <= 1;
      at = at.parentElement
    )
      section = at;
    return section;
  });
}

/** What follows a heading among its siblings, up to the next heading of its level or above. */
function flatSection(heading: Element): Element[] {
  const level = levelOf(heading);
  const section = [heading];
  for (let next = heading.nextElementSibling; next; next = next.nextElementSibling) {
    if (/^H[1-6]$/.test(next.tagName) && levelOf(next) <= level) break;
    section.push(next);
  }
  return section;
}

/**
 * Removes, under `content`, the sections opened by a heading whose text `label` matches: the
 * largest element holding it and no peer heading, or, when the heading stands among its section's
 * paragraphs, it and its siblings up to the next peer heading.
 */
export function removeSectionsHeaded(content: Element, label: RegExp): void {
  const headings = [...content.querySelectorAll(HEADINGS)].slice(0, MAX_HEADINGS);
  const opens = (heading: Element) => {
    const text = (heading.textContent ?? '').trim();
    return text.length <= MAX_LABEL_CHARS && label.test(text);
  };
  for (const section of sectionsOf(headings, content, opens))
    for (const element of /^H[1-6]$/.test(section.tagName) ? flatSection(section) : [section])
      element.remove();
}

/** A label is a line: a few elements at most (its text is read whole). */
const MAX_LABEL_ELEMENTS = 8;

/** Labels read: each reads its siblings, so past these the rest stays (bounded cost). */
const MAX_LABELS = 50;

/** A label's tail goes only when it holds less than this share of the content: it closes the page. */
const MAX_TAIL_SHARE = 0.25;

/** The blocks under `content` whose whole text, a line at most, `label` matches; in document order. */
function findLines(live: LiveStats, label: RegExp, maxChars = MAX_LABEL_CHARS): Element[] {
  const stats = live.current();
  const labels: Element[] = [];
  live.walk((element) => {
    if (labels.length >= MAX_LABELS) return false;
    const { chars = 0, elements = 0 } = stats.get(element) ?? {};
    if (
      chars > 0 &&
      chars <= maxChars &&
      elements <= MAX_LABEL_ELEMENTS &&
      // Collapsed first: a line of 80 visible characters may hold megabytes of whitespace.
      label.test(live.lineText(element))
    ) {
      labels.push(element);
      return false;
    }
    return true;
  });
  return labels;
}

/** The outermost element under `content` holding `line` and no other text. */
function lineBlock(line: Element, live: LiveStats): Element {
  let block = line;
  while (
    block.parentElement &&
    block.parentElement !== live.content &&
    live.charsOf(block.parentElement) === live.charsOf(line)
  )
    block = block.parentElement;
  return block;
}

/** Whether some text under `content` comes before `element`. */
function textBefore(element: Element, live: LiveStats): boolean {
  for (let at: Element | null = element; at && at !== live.content; at = at.parentElement)
    for (let before = at.previousElementSibling; before; before = before.previousElementSibling)
      if (live.charsOf(before) > 0) return true;
  return false;
}

/**
 * Removes, under `content`, each block whose whole text `label` matches ("Related posts",
 * "Auch interessant:", a heading or a paragraph alike) and what follows it in its container, when
 * that is a small part of the content: what points elsewhere closes a page, it does not open it.
 */
export function removeLabelledTails(live: LiveStats, label: RegExp): void {
  const { content } = live;
  const total = live.current().get(content)?.chars ?? 0;
  for (const found of findLines(live, label)) {
    if (!content.contains(found)) continue; // in an earlier label's tail
    // The outermost element holding the label alone: its siblings are the section.
    const start = lineBlock(found, live);
    const tail = [start];
    for (let next = start.nextElementSibling; next; next = next.nextElementSibling) tail.push(next);
    const tailChars = tail.reduce((sum, element) => sum + live.charsOf(element), 0);
    if (tailChars < MAX_TAIL_SHARE * total) for (const element of tail) live.remove(element);
    // Too much follows to be what it opens (its links went with the chrome): the label alone goes,
    // when text precedes it; at the top it may open the content (a page named "Related topics").
    else if (textBefore(start, live)) live.remove(start);
  }
}

/**
 * Credits of a picture or a text ("Foto: dpa", "Bildquelle: iStock", "Photo credit: ...", "© AFP"):
 * a line of their own that names who made it, not what the page says.
 */
export const CREDIT_LINE =
  /^(©|\(?(foto|fotos|bild|bilder|bildquelle|bildnachweis|bildrechte|titelbild|beitragsbild|photo|photos|image|images|imagen|imágenes|picture|quelle|source|fuente|źródło|zdjęcie|crédito|crédit|crédits|credit|credits)( ?(credit|credits|by|via|courtesy|photos?))? ?[:©/])/i;

/**
 * A picture's caption outside a <figcaption>, told by the credit it ends with ("... Foto: Andina",
 * "(mlharing / iStock.com)", "(REUTERS/Denis Balibouse)", "/ Shutterstock"): a line of its own.
 */
export const CAPTION_LINE =
  /(\b(foto|fotos|fot\.|bild|photo|photos|photograph|imagen|fuente|źródło|quelle)\s?:\s?[^.:]{2,60}|\(\s?(©|\(c\))[^)]{2,60}\)|©\s?[^.]{2,60}|\/\s?(shutterstock|istock|getty ?images|dpa|afp|reuters|imago|picture[- ]alliance|domena publiczna|pap|east news)[^.]{0,40}|\((reuters|afp|ap|efe|dpa|epa)\/[^)]*\)|\([^()]{2,40}\/\s?(istock|shutterstock|getty ?images|unsplash|pixabay|adobe ?stock)[^()]*\))\.?\s*$/i;

/** A caption is a sentence or two. */
export const MAX_CAPTION_CHARS = 300;

/**
 * A thread's controls and counters, each a line of its own under each post: a post's number
 * ("#12", its permalink), its votes or likes ("13", "4 likes"), its buttons ("Reply with quote",
 * "Click to expand...", "Ask question").
 */
export const POST_CONTROL_LINE =
  /^(#\d+|[+-]?\d[\d,.]*k?|\d+ (likes?|votes?|points?|replies|answers?)|(click|tap) to (expand|shrink|collapse|show more|see more)\W*|(reply( with quote)?|quote|report|like|permalink|ask question|add a comment|share|follow|flag))$/i;

/**
 * How long the article takes to read ("5 min read", "Lesezeit: 3 Minuten", "11 minut czytania"):
 * a line of the page's template, not of its text.
 */
export const READING_TIME_LINE =
  /^((lesezeit|reading time|temps de lecture|tiempo de lectura|czas czytania)\W*(ca\. |about )?\d+ ?(min|minutes?|minuten|minutos|minut)\.?|(ca\. )?\d+ ?(min|minutes?|minuten|minutos|minut)\.? (read|lesezeit|lesedauer|de lecture|de lectura|czytania)|ten tekst przeczytasz w .{0,30})$/i;

/**
 * A line of its own that labels an advertisement ("Anzeige", "- Advertisement -", "Reklama"), leads
 * back ("Zurück zur Übersicht", "Back to top", "Alle anzeigen"), tells its keys ("Press ? to show
 * this help") or stands where a script draws something ("Loading...", a like button's "Gefällt mir
 * Wird geladen..."): the page's frame, not its text.
 */
export const FRAME_LINE =
  /^[-–—\s]*(anzeige|werbung|advertisement|reklama|publicidad|publicité|zurück( zur (übersicht|listenansicht|startseite))?|back to (top|overview)|nach oben|alle anzeigen|press (s or \/|\?|esc) to (search|show|hide)[^.]{0,30}|((gefällt mir|like|j'aime|me gusta|mi piace|polub) )?(wird geladen|loading|chargement|cargando|caricamento|wczytywanie)\s?(\.{3}|…)?)[-–—\s:]*$/i;

/**
 * Where and when a post was filed ("This entry was posted in News", "Der Beitrag wurde am ...
 * veröffentlicht", "Kategorie: News"): a line of the blog's template below or above the text.
 */
export const FILED_LINE =
  /^(this (entry|post) was posted|posted in\b|filed under\b|(der|dieser) (beitrag|eintrag|artikel) wurde (am|unter|in)\b|erstellt am\b|veröffentlicht (am|in|unter)\b|(kategorie|kategorien|category|categories|schlagwörter|schlagworte|tags|catégories?|categorías?|kategoria)\s?:)/i;

/** Such a line names the post's categories or tags too: a few of them. */
export const MAX_FILED_CHARS = 300;

/** The networks a page asks its readers to follow it on. */
const NETWORKS = '(twitter|facebook|instagram|tiktok|youtube|linkedin|telegram|whatsapp)';

/**
 * A publisher's call to its readers, a line of its own below the text: to get its news elsewhere
 * ("For the latest stories download the ... apps", "Never miss the latest news by signing up to our
 * newsletter"), to read its newsletter ("Schauen Sie mal in unseren Newsletter"), to follow it on a
 * network ("Follow The Gleaner on Twitter", "seguir a Materia en Facebook", "nuestro canal de
 * Telegram"), or to subscribe for the rest ("Subscribe now ... for the full story", "Pour lire la
 * suite"). What a text says of apps, newsletters or networks names no "our" and calls no one.
 */
export const PROMO_LINE = new RegExp(
  [
    // Its news on its app: "the app shows the latest news" is a text's.
    '\\b(get|download|install)\\s(the\\s)?(latest|breaking) (news|stories|headlines)\\b.{0,60}\\bapps?\\b',
    '\\b(latest|breaking) (news|stories|headlines)\\b.{0,60}\\b(get|download|install)\\b.{0,40}\\bapps?\\b',
    '\\b(our|unser(e|em|en|er)?|nuestr[oa]s?|notre|nos)\\s(\\S+\\s)?\\S*newsletter\\b',
    // Who is followed is a name or "us": "Follow these steps shared on Twitter" is the text's.
    `\\b(follow|folgen sie|folge|síguenos|seguir a|siga a|suivez|obserwuj)\\s(the\\s)?\\S+\\s(on|auf|en|sur|na)\\s(\\S+\\s)?${NETWORKS}\\b`,
    `\\bcanal de ${NETWORKS}\\b`,
    '\\bsubscribe\\b.{0,60}\\b(full story|full article|to read|to continue)',
    '\\bto (view|read|continue reading) the (full|rest|entire) (story|article)',
    '\\bpour lire la suite\\b',
    '\\bsubscribe (now|today)\\b',
    // A newsletter's promise: "the best threads sent straight to your inbox".
    '\\b(delivered|sent|straight|right|directly) (straight )?to your inbox\\b',
  ].join('|'),
  'i',
);

/** Such a call is a sentence or two. */
export const MAX_PROMO_CHARS = 250;

/** The outermost blocks under the content whose whole text is a line `line` matches, of `maxChars` at most. */
export function lineBlocks(live: LiveStats, line: RegExp, maxChars = MAX_LABEL_CHARS): Element[] {
  return findLines(live, line, maxChars).map((found) => lineBlock(found, live));
}

/** Removes, under the content, each block whose whole text is a line `line` matches, of `maxChars` at most. */
export function removeLines(live: LiveStats, line: RegExp, maxChars = MAX_LABEL_CHARS): void {
  for (const block of lineBlocks(live, line, maxChars)) live.remove(block);
}

/** A line pointing to another story is short: a label and a headline. */
const MAX_LEAD_CHARS = 240;

/** Removes, under the content, each short line that opens with `lead` and is mostly a link. */
export function removeLeadLines(live: LiveStats, lead: RegExp): void {
  const stats = live.current();
  for (const found of findLines(live, lead, MAX_LEAD_CHARS)) {
    const { chars = 0, linkChars = 0 } = stats.get(found) ?? {};
    if (linkChars >= chars / 2) live.remove(lineBlock(found, live));
  }
}

/** Captions read: past these the rest stays (bounded cost). */
const MAX_CAPTIONS = 200;

/** Captions go only when all of them hold less than this share of the content: else they are it (a gallery). */
const MAX_CAPTION_SHARE = 0.3;

/**
 * Removes, under `content`, figures' captions: what a picture shows and who took it, beside the
 * text rather than part of it (both corpora's annotations leave them out, nine captions in ten).
 * Returns whether the captions are kept as the content (a gallery's).
 */
export function removeCaptions(live: LiveStats): boolean {
  const { content } = live;
  const captions = [...content.querySelectorAll('figcaption')].slice(0, MAX_CAPTIONS);
  if (!captions.length) return false;
  const stats = live.current();
  const chars = captions.reduce((sum, caption) => sum + (stats.get(caption)?.chars ?? 0), 0);
  if (chars >= MAX_CAPTION_SHARE * (stats.get(content)?.chars ?? 0)) return true;
  for (const caption of captions) live.remove(caption);
  return false;
}
