import AuthDeckUI
import AuthDeckLook

/// What the deck's loop needs of a terminal: its size, input, and frames drawn.
///
/// Why a protocol: `CursesScreen` is the one real terminal, but the loop (keys → actions →
/// effects → frames) is tested with a scripted screen, below the binary and without tmux.
public protocol TerminalScreen: AnyObject {
    var width: Int { get }
    var height: Int { get }
    func start()
    func stop()
    /// The next input, waiting at most `milliseconds`; nil when none came.
    func read(milliseconds: Int32) -> CursesScreen.Input?
    /// Draws `frame`; returns it as the terminal now shows it.
    @discardableResult func draw(_ frame: ScreenBuffer, theme: Theme) -> ScreenBuffer
}

extension CursesScreen: TerminalScreen {}
