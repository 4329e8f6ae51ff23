/// AuthDeckUI: the deck as pure functions — `DeckState`, `DeckReducer` (state, action → state,
/// effects) and `DeckRenderer` (state, size → `ScreenBuffer`), drawn with AuthDeckLook's roles
/// and dispatched through its key table.
///
/// Must not import: curses (the terminal backend diffs and flushes the buffers), the store,
/// HTTP, or AuthDeckConfig (the deck is handed its theme and keys as values).
public enum AuthDeckUI {}
