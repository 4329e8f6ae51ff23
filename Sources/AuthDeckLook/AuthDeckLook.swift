/// AuthDeckLook: what the deck looks like and answers to, as plain values — the roles a cell
/// can have and the themes that colour them (`Role`, `Theme`), and the one key table
/// (`Key`, `Keymap`) that dispatch, the help, the man page and config.toml's `[keys]` read.
///
/// Why a module of its own: config.toml and theme files name these (AuthDeckConfig validates
/// them), and the deck draws and dispatches with them (AuthDeckUI); neither should import the
/// other. Must not import: anything but AuthDeckCore — no TOML, no curses, no store.
public enum AuthDeckLook {}
