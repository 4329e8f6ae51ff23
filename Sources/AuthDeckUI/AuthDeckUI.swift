/// AuthDeckUI: pure rendering — `render(state, size) -> ScreenBuffer`, widgets, themes,
/// keymap. Knows nothing of curses; the terminal backend diffs and flushes its buffers.
public enum AuthDeckUI {}
