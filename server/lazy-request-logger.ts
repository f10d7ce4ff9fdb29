import type { FastifyBaseLogger } from 'fastify';

type Bindings = Record<string, unknown>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<FastifyBaseLogger['info']>;
/** pino, which Fastify uses, can say whether a level is written; other loggers are asked nothing. */
type ParentLogger = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };

/**
 * A request's logger that makes its pino child (which serialises the request id) only when a line is
 * actually written. Most requests write nothing below the configured level, and building a child for
 * each of them cost a quarter of the throughput of small API answers.
 */
export class LazyRequestLogger {
  #parent: ParentLogger;
  #bindings: Bindings;
  #options: object;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: ParentLogger, bindings: Bindings, options: object) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The real child logger, made on first need. */
  #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #write(level: Level, args: LogArgs): void {
    if (this.#child || this.isLevelEnabled(level)) (this.#real()[level] as (...a: LogArgs) => void)(...args);
  }

  get level(): string {
    return this.#child?.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  fatal(...args: LogArgs): void {
    this.#write('fatal', args);
  }
  error(...args: LogArgs): void {
    this.#write('error', args);
  }
  warn(...args: LogArgs): void {
    this.#write('warn', args);
  }
  info(...args: LogArgs): void {
    this.#write('info', args);
  }
  debug(...args: LogArgs): void {
    this.#write('debug', args);
  }
  trace(...args: LogArgs): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }

  isLevelEnabled(level: string): boolean {
    return this.#parent.isLevelEnabled?.(level) ?? true;
  }
}

/** Fastify's `childLoggerFactory`: a lazy child per request. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: object): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
