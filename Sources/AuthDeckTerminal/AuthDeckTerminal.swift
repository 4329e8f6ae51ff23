/// AuthDeckTerminal: the only code that calls curses. It owns the real terminal — setup,
/// restore on every exit path, input decoding, and diff-and-flush of ScreenBuffers.
public enum AuthDeckTerminal {}
