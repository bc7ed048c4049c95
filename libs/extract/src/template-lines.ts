// Lines of a page's template or machinery set among its text: dates, embeds' consent placeholders,
// server errors, cookie notices, and a grid's and a thread's controls.
import { lineBlocks } from './sections';
import type { LiveStats } from './text-stats';

const MONTHS = [
  'jan(uar|uary)?|feb(ruar|ruary)?|märz?|mar(ch)?|apr(il)?|mai|may|jun[ei]?|jul[iy]?|aug(ust)?',
  'sep(t|tember)?|okt(ober)?|oct(ober)?|nov(ember)?|dez(ember)?|dec(ember)?',
  'janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre',
  'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre',
  'stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia',
].join('|');

const WEEKDAYS =
  'montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun|mo|di|mi|do|fr|sa|so';

/** What may name the date: its publication or its update. */
const LABELS = [
  'publiziert|veröffentlicht( am)?|veröffentlichung|(zuletzt )?aktualisiert( am)?|stand|erstellt( am)?|datum',
  'published( on)?|updated( on)?|last (updated|modified)( on)?|posted( on)?|release date|date',
  'publié le|mis à jour le|publicado( el)?|actualizado( el)?|opublikowano|aktualizacja',
].join('|');

const MONTH = `(${MONTHS})\\.?`;
const DATE = [
  '\\d{1,2}\\.\\s?\\d{1,2}\\.\\s?(\\d{4}|\\d{2})',
  '\\d{4}-\\d{2}-\\d{2}',
  '\\d{1,2}/\\d{1,2}/(\\d{4}|\\d{2})',
  `\\d{1,2}\\.?\\s(de\\s)?${MONTH}\\s(de\\s)?\\d{4}`,
  `${MONTH}\\s\\d{1,2}(st|nd|rd|th)?,?\\s\\d{4}`,
].join('|');
const TIME = '\\d{1,2}:\\d{2}(\\s?(uhr|h|am|pm))?|\\d{1,2}\\.\\d{2}\\s?uhr';

/**
 * A line that is a date alone ("23.10.2018", "16 marca 2021", "Publiziert: 03.04.2020, 12:35",
 * "Veröffentlichung: 2. Februar 2022", "3:59 PM"): when and by what clock a post was filed, set on a
 * line of its own by the page's template, not a sentence of its text. A listing's or a thread's
 * items each have one: many such lines are the content's.
 */
export const DATE_LINE = new RegExp(
  `^((${LABELS})\\s?:?\\s)?((${WEEKDAYS})\\.?,?\\s)?((${DATE})([,|\\s-]+(um\\s|at\\s|à\\s)?(${TIME}))?|${TIME})\\.?[\\s|•·–—]*$`,
  'i',
);

/** A date line is short. */
const MAX_DATE_CHARS = 60;

/** Past this many date lines the dates are the content's: its items'. */
const MAX_DATE_LINES = 2;

const TEXT_NODE = 3;

/** A block with no text beside it: not a date inside a sentence ("On <span>July 4, 2025</span>, ..."). */
const standsAlone = (block: Element) =>
  ![block.previousSibling, block.nextSibling].some(
    (node) => node?.nodeType === TEXT_NODE && !!node.textContent?.trim(),
  );

/** Removes, under the content, the lines that are a date alone, when there are one or two of them. */
export function removeDateLines(live: LiveStats): void {
  const dates = lineBlocks(live, DATE_LINE, MAX_DATE_CHARS).filter(standsAlone);
  if (dates.length <= MAX_DATE_LINES) for (const date of dates) live.remove(date);
}

/**
 * What stands in for an embedded post or map until the reader consents to load it ("Externer
 * Inhalt", "Ich bin damit einverstanden, dass mir externe Inhalte angezeigt werden", "Wir
 * respektieren deine Privatsphäre ...", "Twitter freischalten"): the page's consent machinery, not
 * its text. Sites under the GDPR set it wherever a tweet or a video was.
 */
export const CONSENT_LINE =
  /^(externer inhalt|empfohlener (redaktioneller|externer) inhalt|externe inhalte (anzeigen|laden|aktivieren)|inhalt (laden|anzeigen|entsperren)|\S+ freischalten|datenschutzeinstellungen (verwalten|anpassen|ändern))$|(einverstanden|zustimm|einwillig).{0,200}(externe[nr]? inhalt|drittplattform|drittanbieter)|(externe[nr]? inhalt|inhalte? von \S+).{0,200}(einverstanden|zustimm|einwillig|zu laden|anzeigen lassen|blockiert)|wir respektieren (deine|ihre) privatsphäre/i;

/** Such a placeholder says it in a few sentences. */
export const MAX_CONSENT_CHARS = 500;

/**
 * What the server or the browser's machinery printed into the page: a PHP error ("Warning: ... in
 * /www/.../classes.php on line 407") or a cookie notice left in the text ("Durch die weitere Nutzung
 * der Seite stimmst du der Verwendung von Cookies zu", "By using this site you agree to our use of
 * cookies"). Never the page's text: a text about cookies does not ask its reader to agree to them.
 */
export const MACHINERY_LINE =
  /^(warning|notice|deprecated|fatal error|parse error|strict standards)\s?:.{0,300}\son line \d+|\b(nutzung|benutzung|nutzt|weiterhin|use of|using|to use|browsing|utilisation|utilisant|navegando|navegar)\b.{0,80}\b(stimm(st|en) (du|sie)|agree|consent|einverstanden|accept|acceptez|acepta)\w*\b.{0,60}\bcookies?\b|\b(stimm(st|en) (du|sie)|agree|consent|einverstanden|accept|acceptez|acepta)\w*\b.{0,60}\bcookies?\b.{0,60}\b(zu|verwende\w*)\b/i;

/** Such a line is a sentence or two, a path and a line number. */
export const MAX_MACHINERY_CHARS = 400;

/**
 * A card's controls and badges, each a line of its own on every card of a shop's grid ("Add to
 * cart", "Add to compare", "Quick view", "Choose options", "Top rated", "New arrival", "See price
 * in cart", a rating widget's "Rate this book"), and the grid's sort bar ("Sort by:", "Price, low
 * to high"): what a shopper clicks or a label the shop pins on, not what the card says of its
 * product. Not "Best sellers" or "New arrivals", which also head a shop's sections.
 */
export const CARD_CONTROL_LINE =
  /^(add to (cart|bag|basket|wish ?list|compare|favou?rites)|compare|quick ?(view|shop|look)|(choose|select|show|more) options|view details|read (full article|entire review)|top rated|new arrival|sponsored|award winner|be the first to review.*|calculate shipping|(current price )?see price in cart|(available in additional )?\d+ options|sort by|sort( by)? ?:.{0,20}|price,? (low to high|high to low)|alphabetically, ?[a-z] ?- ?[a-z]|date, (old to new|new to old)|rate this (book|product|item|recipe|movie|film|title)|clear rating)$/i;

/**
 * A thread's controls and its authors' status, each a line of its own under or beside every post
 * ("Permalink", "Embed", "Share on other sites", "Reply with quote", "View profile", "Senior
 * member", "Moderator", "Offline", "4 likes", "Posts: 1,234", "Joined", "Last edited: ..."), and a
 * Q&A site's prompts ("Ask question", "Sorted by:", "Your answer"), on any page but a product's: a
 * forum's page often says nothing of itself, and an article's comments carry them too.
 */
export const THREAD_CONTROL_LINE =
  /^(permalink|embed|share on other sites|link to post|view (profile|forum posts|forum threads|public profile)|original poster|offline|((senior|established|new|junior|active|well-known|premium) )?member|\d+ likes?|click to expand\.*|reply with quote( \d+)?|reply \d+|(posts|replies): [\d,]+|[\d,]+ posts|joined|join date|visit homepage|wrote on|sorted by:|ask question|start asking to get answers|moderator|last edited:.*|your answer|you must (log|sign) in to (answer|reply|post).*|no posts)$/i;
