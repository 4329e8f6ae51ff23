import Foundation
import AuthDeckUI

/// The screen oracle's half in the deck: with `AUTHDECK_TEST_FRAMES=path`, the text of each
/// frame the deck meant to show, written after it was flushed to the terminal.
///
/// Why: a test reading the terminal (tmux `capture-pane`) can then compare it cell by cell
/// with what was intended, so debris and corruption fail a test instead of waiting to be seen.
final class FrameLog {
    let path: String
    private var last: ScreenBuffer?
    private var count = 0

    init?(environment: [String: String]) {
        guard let path = environment["AUTHDECK_TEST_FRAMES"], !path.isEmpty else { return nil }
        self.path = path
    }

    /// Writes `frame` (when it differs from the last one) as `frame N WxH` and its lines, by
    /// rename, so a reader never sees half a frame.
    func record(_ frame: ScreenBuffer) {
        guard frame != last else { return }
        last = frame
        count += 1
        let text = "frame \(count) \(frame.width)x\(frame.height)\n" + frame.text + "\n"
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else { return }
        _ = rename(temporary, path)
    }
}
