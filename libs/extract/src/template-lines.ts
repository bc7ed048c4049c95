// Lines of a page's template or machinery set among its text: dates, embeds' consent placeholders,
// server errors and cookie notices.
import { lineBlocks } from './sections';

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

/** Removes, under `content`, the lines that are a date alone, when there are one or two of them. */
export function removeDateLines(content: Element): void {
  const dates = lineBlocks(content, DATE_LINE, MAX_DATE_CHARS).filter(standsAlone);
  if (dates.length <= MAX_DATE_LINES) for (const date of dates) date.remove();
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
