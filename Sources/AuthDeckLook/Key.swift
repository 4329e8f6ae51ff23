/// A key as the deck understands it (the terminal backend decodes curses codes into these).
public enum Key: Hashable, Sendable {
    case char(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace
}
