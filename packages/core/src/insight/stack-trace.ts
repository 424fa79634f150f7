/**
 * The exception analyzer's grouping rule: a Java stack trace as the IDE sends it (`Throwable.printStackTrace`
 * text) reduced to what stays the same when the same defect strikes again, so that reports of one defect share
 * a fingerprint (the server takes SHA-256 of {@link NormalisedStackTrace.text}).
 *
 * What is kept, one line each: the class of the exception and of each `Caused by:` (suppressed exceptions are
 * left out), and under each the frames of the plugin's own packages as `class.method`. What is dropped: the
 * messages (they carry data: paths, names, numbers), file names and line numbers (they move with every
 * release), `... N more`, repeated frames (recursion depth varies), synthetic accessors (`access$000`), and
 * the numbers compilers and runtimes put in generated names: anonymous classes (`$1`), lambdas
 * (`lambda$foo$3`, `foo$lambda$12`, `foo$lambda-12`, `$$Lambda$17/0x...`, `$$Lambda/0x...`), proxies
 * (`$Proxy12`, `jdk.proxy2`), reflection accessors (`GeneratedMethodAccessor40`) and byte-code generators'
 * hashes (`$$EnhancerByCGLIB$$1a2b`, `$ByteBuddy$x1y2`).
 *
 * Which packages are the plugin's own ({@link pluginPackageOf}):
 * 1. the plugin id's package, when the id is a dotted name (`com.acme.tools.lint` → `com.acme`) and some frame
 *    lies in it: its first two segments, or three under a namespace many vendors share (`com.github.alice`,
 *    `org.jetbrains.plugins`, see {@link SHARED_NAMESPACES});
 * 2. otherwise the package of the first frame (outermost exception first) outside the platform, the JDK and
 *    the Kotlin and Groovy runtimes ({@link PLATFORM_PACKAGES}), taken the same way;
 * 3. otherwise (the error lies wholly in platform code) no package: the top {@link FALLBACK_FRAMES} frames of
 *    the outermost exception stand for the plugin's.
 */

export interface NormalisedStackTrace {
  /** The text the fingerprint is taken of: the kept exception classes and frames, one a line. */
  text: string;
  /** The outermost exception's class, its generated numbers removed (`java.lang.IllegalStateException`). */
  exceptionClass: string;
  /** The first line of the outermost exception's message, '' when it has none (shown, never grouped by). */
  message: string;
  /** The package taken as the plugin's own (`com.acme`), '' when none was found (rule 3). */
  pluginPackage: string;
}

/** Namespaces whose first two segments many unrelated vendors share: a package under them needs three. */
export const SHARED_NAMESPACES: ReadonlySet<string> = new Set([
  'com.github',
  'io.github',
  'com.gitlab',
  'io.gitlab',
  'com.gitee',
  'org.jetbrains',
  'com.jetbrains',
  'com.intellij',
  'org.intellij',
  'com.google',
  'org.apache',
  'org.eclipse',
  'com.example',
  'org.example',
]);

/** Packages of the IDE, the JDK and the language runtimes: never the plugin's own by rule 2. */
export const PLATFORM_PACKAGES: readonly string[] = [
  'java.',
  'javax.',
  'jdk.',
  'sun.',
  'com.sun.',
  'kotlin.',
  'kotlinx.',
  'com.intellij.',
  'org.jetbrains.',
  'com.jetbrains.',
  'org.intellij.',
  'groovy.',
  'org.codehaus.groovy.',
  'scala.',
];

/** Frames kept when no package of the plugin shows in the trace. */
export const FALLBACK_FRAMES = 5;
/** Kept frames per exception, and exceptions per trace: enough to tell defects apart, bounded in cost. */
const MAX_FRAMES_PER_EXCEPTION = 40;
const MAX_EXCEPTIONS = 10;
const MAX_MESSAGE_LENGTH = 300;

interface Frame {
  /** `class.method`, normalised. */
  name: string;
  className: string;
}

interface ExceptionSection {
  exceptionClass: string;
  message: string;
  frames: Frame[];
}

const IDENTIFIER = String.raw`[\p{L}_$][\p{L}\p{N}_$]*`;
const SEGMENT = new RegExp(String.raw`^${IDENTIFIER}$`, 'u');
/** A qualified class name: a package and a class (exceptions of the default package are not told apart). */
const CLASS_NAME = new RegExp(String.raw`^${IDENTIFIER}(?:\.${IDENTIFIER})+$`, 'u');
const FRAME_LINE = /^\s*at\s+([^\s(]+)\s*\(([^)]*)\)/;
const CAUSED_BY = /^Caused by:\s*(.*)$/;
const SUPPRESSED = /^\s+Suppressed:\s*/;
const INDENTED_CAUSE = /^\s+Caused by:\s*/;
const THREAD_PREFIX = /^Exception in thread "[^"]*"\s+/;

/**
 * A class name without the numbers generators put in it: hidden-class addresses, lambda, anonymous and local
 * class numbers, proxy and accessor numbers, byte-code generators' hashes.
 */
export function normaliseClassName(name: string): string {
  return (
    name
      // Hidden classes (JDK 15+ lambdas and proxies): `Foo$$Lambda/0x0000000801234`, `$$Lambda$17/123456`.
      .replace(/\/(?:0x)?[0-9a-fA-F]+$/, '')
      .replace(/\$\$Lambda\$\d+/g, '$$$$Lambda')
      .replace(/\$lambda[-$]\d+/g, '')
      .replace(/\$Proxy\d+/g, '$$Proxy')
      .replace(/\bjdk\.proxy\d+\b/g, 'jdk.proxy')
      .replace(/\b(Generated\w*?Accessor)\d+\b/g, '$1')
      // CGLIB, Javassist, Spring: `$$EnhancerByCGLIB$$1a2b3c`, `$$FastClassBySpringCGLIB$$9f`.
      .replace(/(\$\$\w+?)\$\$[0-9a-fA-F]+/g, '$1')
      .replace(/\$(ByteBuddy|MockitoMock|HibernateProxy|\$_javassist)\$\w+/g, '$$$1')
      // Anonymous and local classes: `Foo$1`, `Foo$2$1` → `Foo`; `Foo$1Local` → `Foo$Local`.
      .replace(/\$\d+(?=\$|$)/g, '')
      .replace(/\$\d+(?=\p{L})/gu, '$$')
  );
}

/** A method name without lambda and synthetic numbers: `lambda$run$3` → `lambda$run`, `foo$lambda$12` → `foo`. */
export function normaliseMethodName(name: string): string {
  return name.replace(/\$lambda[-$]\d+/g, '').replace(/\$\d+$/, '');
}

/** `access$000` and the like: compiler-made bridges that come and go with the target Java version. */
function isSyntheticAccessor(method: string): boolean {
  return /^access\$\d+$/.test(method);
}

/** Reads `at [loader/][module[@version]/]class.method(location)` into a normalised frame. */
function readFrame(line: string): Frame | null | undefined {
  const match = FRAME_LINE.exec(line);
  if (!match) return undefined;
  let qualified = (match[1] ?? '').trim();
  // Hidden-class addresses first: their slash is not a module separator.
  qualified = qualified.replace(/\/0x[0-9a-fA-F]+(?=\.)/g, '').replace(/(\$\$Lambda\$\d+)\/\d+(?=\.)/g, '$1');
  const slash = qualified.lastIndexOf('/');
  if (slash >= 0) qualified = qualified.slice(slash + 1);
  const dot = qualified.lastIndexOf('.');
  if (dot <= 0) return null;
  const method = qualified.slice(dot + 1);
  if (isSyntheticAccessor(method)) return null;
  const className = normaliseClassName(qualified.slice(0, dot));
  return { name: `${className}.${normaliseMethodName(method)}`, className };
}

/** `java.lang.IllegalStateException: text` → the class and the first line of the text. */
function readHeader(line: string): { exceptionClass: string; message: string } | undefined {
  const text = line.trim().replace(THREAD_PREFIX, '');
  const colon = text.indexOf(':');
  const candidate = (colon >= 0 ? text.slice(0, colon) : text).trim();
  if (!CLASS_NAME.test(candidate)) return undefined;
  const message = colon >= 0 ? text.slice(colon + 1).trim() : '';
  return {
    exceptionClass: normaliseClassName(candidate),
    message: message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message,
  };
}

/** The outermost exception and its causes, each with its frames in order (suppressed exceptions skipped). */
function readSections(trace: string): ExceptionSection[] {
  const sections: ExceptionSection[] = [];
  let current: ExceptionSection | undefined;
  let inSuppressed = false;
  for (const line of trace.split(/\r\n|\r|\n/)) {
    if (line.trim() === '') continue;
    if (current === undefined) {
      // The first line that names a class opens the trace; anything before it (a log prefix) is skipped.
      const header = readHeader(line);
      if (header) {
        current = { ...header, frames: [] };
        sections.push(current);
      }
      continue;
    }
    const cause = CAUSED_BY.exec(line);
    if (cause) {
      inSuppressed = false;
      const header = readHeader(cause[1] ?? '');
      if (!header || sections.length >= MAX_EXCEPTIONS) {
        current = { exceptionClass: '', message: '', frames: [] };
        continue;
      }
      current = { ...header, frames: [] };
      sections.push(current);
      continue;
    }
    if (SUPPRESSED.test(line)) {
      inSuppressed = true;
      continue;
    }
    if (inSuppressed || INDENTED_CAUSE.test(line)) continue;
    const frame = readFrame(line);
    if (frame) current.frames.push(frame);
  }
  return sections.filter((section) => section.exceptionClass !== '');
}

function isPlatformClass(className: string): boolean {
  return PLATFORM_PACKAGES.some((prefix) => className.startsWith(prefix));
}

/** The first two segments of a dotted name, or three under a shared namespace; '' when it has too few. */
export function packagePrefixOf(dottedName: string): string {
  const segments = dottedName.split('.');
  const namespace = segments.slice(0, 2).join('.');
  const wanted = SHARED_NAMESPACES.has(namespace) ? 3 : 2;
  // A package needs a segment beyond the prefix for the class itself.
  return segments.length > wanted ? segments.slice(0, wanted).join('.') : '';
}

function inPackage(className: string, prefix: string): boolean {
  return prefix !== '' && className.startsWith(`${prefix}.`);
}

/** The package taken as the plugin's own (rules 1 and 2 of this file's comment), '' when there is none. */
export function pluginPackageOf(pluginId: string, frameClasses: readonly string[]): string {
  // The id stands for a package as far as its segments are Java names (`com.acme.my-tool` → `com.acme`).
  const segments: string[] = [];
  for (const segment of pluginId.trim().split('.')) {
    if (!SEGMENT.test(segment)) break;
    segments.push(segment);
  }
  const fromId = segments.length >= 2 ? packagePrefixOf([...segments, 'X'].join('.')) : '';
  if (frameClasses.some((className) => inPackage(className, fromId))) return fromId;
  const outside = frameClasses.find((className) => !isPlatformClass(className));
  return outside === undefined ? '' : packagePrefixOf(outside);
}

/**
 * Reduces a stack trace to its grouping text (see this file's comment); undefined when the text is not a
 * Java stack trace (no line names an exception class).
 */
export function normaliseStackTrace(trace: string, pluginId: string): NormalisedStackTrace | undefined {
  const sections = readSections(trace);
  const outermost = sections[0];
  if (!outermost) return undefined;
  const pluginPackage = pluginPackageOf(
    pluginId,
    sections.flatMap((section) => section.frames.map((frame) => frame.className)),
  );
  const lines: string[] = [];
  sections.forEach((section, index) => {
    lines.push(index === 0 ? section.exceptionClass : `caused by ${section.exceptionClass}`);
    // Without a package of the plugin, the outermost exception's top frames stand for its own.
    const fallback = pluginPackage === '';
    if (fallback && index > 0) return;
    const limit = fallback ? FALLBACK_FRAMES : MAX_FRAMES_PER_EXCEPTION;
    const seen = new Set<string>();
    for (const frame of section.frames) {
      if (seen.size >= limit) break;
      if (seen.has(frame.name) || !(fallback || inPackage(frame.className, pluginPackage))) continue;
      seen.add(frame.name);
      lines.push(`at ${frame.name}`);
    }
  });
  return {
    text: lines.join('\n'),
    exceptionClass: outermost.exceptionClass,
    message: outermost.message,
    pluginPackage,
  };
}
