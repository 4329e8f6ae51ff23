import CNcursesw
import AuthDeckUI
#if canImport(Glibc)
import Glibc
import AuthDeckLook
#endif

/// The real terminal: owns curses from `start` to `stop`, and restores the terminal on every
/// way out (quit, Ctrl-C, SIGTERM, SIGHUP, a crash signal).
public final class CursesScreen {
    public enum Input: Equatable {
        case key(Key)
        case resize(width: Int, height: Int)
        case click(x: Int, y: Int)
        /// The terminal is gone (hung up or closed): nothing more can be read or shown.
        case hangup
        /// SIGINT (Ctrl-C), SIGTERM or SIGHUP arrived: quit, as q does.
        case signal(Int32)
    }

    public private(set) var width = 0
    public private(set) var height = 0
    let color: Bool
    var previous: ScreenBuffer?
    var pairs: [PairKey: Int16] = [:]

    /// A colour pair's foreground and background (a String built per run of cells was a
    /// measurable part of each frame).
    struct PairKey: Hashable {
        var fg: Theme.Color
        var bg: Theme.Color
    }
    var themeName = ""
    /// The locale's width of each non-ASCII scalar drawn so far (`shownWidth`).
    var widths: [UInt32: Int] = [:]

    /// - Parameter color: false for NO_COLOR or monochrome terminals.
    public init(color: Bool) {
        self.color = color
    }

    public func start() {
        setlocale(LC_ALL, "")
        // Ctrl-Z is curses' to handle (it restores the terminal around the stop), and curses
        // takes SIGTSTP only from its default: the command's own handler (SignalShield) goes.
        signal(SIGTSTP, SIG_DFL)
        initscr()
        cbreak()
        noecho()
        nonl()
        keypad(ad_stdscr(), true)
        // Esc answers at once: curses waits a whole second by default for the rest of an
        // escape sequence, and terminals send a sequence's bytes together anyway.
        set_escdelay(25)
        curs_set(0)
        ad_enable_mouse()
        if color && has_colors() {
            start_color()
            use_default_colors()
        }
        CursesScreen.installRestorers()
        width = Int(ad_getmaxx(ad_stdscr()))
        height = Int(ad_getmaxy(ad_stdscr()))
    }

    /// Leaves curses mode; safe to call more than once. From here on a signal ends the
    /// process at once: the deck is closed and only its last work is being waited for.
    public func stop() {
        CursesScreen.restore()
        if Self.signalled == 0 { Self.signalled = -1 }
    }

    /// Whether the terminal (standard input) has hung up or closed. Why: then every read
    /// fails at once, and a loop waiting for keys would spin at full speed for ever — which a
    /// deck whose SIGHUP never arrives (blocked by whoever started it) otherwise did.
    static func terminalGone(_ descriptor: Int32 = 0) -> Bool {
        var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) > 0 && fd.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Leaves curses mode; safe to call more than once and from a signal handler.
    static func restore() {
        if isendwin() == false { endwin() }
    }

    /// The first SIGINT, SIGTERM or SIGHUP while the deck runs (`read` reports it), or -1
    /// once it has stopped. Why: the deck quits as on q, letting a renewal the provider has
    /// answered be saved; dying in the handler lost it. A second signal still ends it at once.
    nonisolated(unsafe) static var signalled: Int32 = 0

    static func installRestorers() {
        atexit { CursesScreen.restore() }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { s in
                if CursesScreen.signalled == 0 {
                    CursesScreen.signalled = s
                    return
                }
                CursesScreen.restore()
                _exit(128 + s)
            }
        }
        for sig in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT] {
            signal(sig) { s in
                CursesScreen.restore()
                signal(s, SIG_DFL)
                raise(s)
            }
        }
    }

    /// Waits up to `milliseconds` for input.
    public func read(milliseconds: Int32) -> Input? {
        timeout(milliseconds)
        var ch: wint_t = 0
        if Self.signalled > 0 { return .signal(Self.signalled) }
        let rc = ad_get_wch(&ch)
        if Self.signalled > 0 { return .signal(Self.signalled) }
        if rc == ERR { return Self.terminalGone() ? .hangup : nil }
        if rc == KEY_CODE_YES {
            switch Int32(ch) {
            case KEY_UP: return .key(.up)
            case KEY_DOWN: return .key(.down)
            case KEY_LEFT: return .key(.left)
            case KEY_RIGHT: return .key(.right)
            case KEY_PPAGE: return .key(.pageUp)
            case KEY_NPAGE: return .key(.pageDown)
            case KEY_HOME: return .key(.home)
            case KEY_END: return .key(.end)
            case KEY_ENTER: return .key(.enter)
            case KEY_BACKSPACE: return .key(.backspace)
            case KEY_BTAB: return .key(.backTab)
            case KEY_RESIZE:
                width = Int(ad_getmaxx(ad_stdscr()))
                height = Int(ad_getmaxy(ad_stdscr()))
                previous = nil
                clear()
                return .resize(width: width, height: height)
            case KEY_MOUSE:
                var x: Int32 = 0, y: Int32 = 0
                var state: UInt = 0
                guard ad_mouse_event(&x, &y, &state) == OK, state & ad_button1_clicked() != 0 else { return nil }
                return .click(x: Int(x), y: Int(y))
            default: return nil
            }
        }
        switch ch {
        case 13, 10: return .key(.enter)
        case 27: return .key(.escape)
        case 12:
            repaintAll()
            return nil
        case 9: return .key(.tab)
        case 127, 8: return .key(.backspace)
        default:
            guard let scalar = Unicode.Scalar(UInt32(ch)), ch >= 32 else { return nil }
            return .key(.char(Character(scalar)))
        }
    }

    /// Draws `buffer`, writing only the rows that changed since the last frame; returns the
    /// frame as drawn (what the terminal should now show, for the screen oracle).
    @discardableResult
    public func draw(_ frame: ScreenBuffer, theme: Theme) -> ScreenBuffer {
        let buffer = frame.limited(to: shownWidth)
        if theme.name != themeName {
            themeName = theme.name
            previous = nil
        }
        for y in 0..<min(buffer.height, height) {
            if let previous, previous.width == buffer.width, previous.height == buffer.height, rowEqual(previous, buffer, y) { continue }
            var x = 0
            while x < min(buffer.width, width) {
                let role = buffer.cell(x: x, y: y).role
                var run: [wchar_t] = []
                run.reserveCapacity(min(buffer.width, width) - x)
                let start = x
                while x < min(buffer.width, width), buffer.cell(x: x, y: y).role == role {
                    let c = buffer.cell(x: x, y: y)
                    // The cell's first scalar, appended as is (mapping it into an array of its
                    // own was an allocation per cell, most of a frame's drawing).
                    if !c.continuation, let scalar = c.character.unicodeScalars.first { run.append(wchar_t(scalar.value)) }
                    x += 1
                }
                // Writing the last cell of the screen would scroll; stop one short there.
                let n = (y == height - 1 && x == width) ? Int32(run.count - 1) : Int32(run.count)
                let (attrs, pair) = attributes(theme.style(role))
                if n > 0 { _ = ad_draw(Int32(y), Int32(start), run, n, attrs, pair) }
            }
        }
        previous = buffer
        refresh()
        return buffer
    }

    /// Ctrl-L: the next frame rewrites every cell of the terminal, whatever curses believes
    /// is there (another program may have written over the deck).
    func repaintAll() {
        previous = nil
        clearok(ad_stdscr(), true)
    }

    func rowEqual(_ a: ScreenBuffer, _ b: ScreenBuffer, _ y: Int) -> Bool {
        for x in 0..<a.width where a.cell(x: x, y: y) != b.cell(x: x, y: y) { return false }
        return true
    }

    func attributes(_ s: Theme.Style) -> (Int32, Int16) {
        var attrs = ad_a_normal()
        if s.bold { attrs |= ad_a_bold() }
        if s.reverse { attrs |= ad_a_reverse() }
        if s.underline { attrs |= ad_a_underline() }
        if s.dim { attrs |= ad_a_dim() }
        guard color, has_colors(), s.fg != .default || s.bg != .default else { return (attrs, 0) }
        let key = PairKey(fg: s.fg, bg: s.bg)
        if let pair = pairs[key] { return (attrs, pair) }
        let pair = Int16(pairs.count + 1)
        guard Int32(pair) < ad_color_pairs() else { return (attrs, 0) }
        init_pair(pair, Self.curses(s.fg), Self.curses(s.bg))
        pairs[key] = pair
        return (attrs, pair)
    }

    static func curses(_ c: Theme.Color) -> Int16 {
        switch c {
        case .default: return -1
        case .black: return Int16(COLOR_BLACK)
        case .red: return Int16(COLOR_RED)
        case .green: return Int16(COLOR_GREEN)
        case .yellow: return Int16(COLOR_YELLOW)
        case .blue: return Int16(COLOR_BLUE)
        case .magenta: return Int16(COLOR_MAGENTA)
        case .cyan: return Int16(COLOR_CYAN)
        case .white: return Int16(COLOR_WHITE)
        }
    }
}
