import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckUI
import AuthDeckTerminal
import AuthDeckTestSupport
import Synchronization
import AuthDeckConfig
import AuthDeckApp
@testable import AuthDeckDeck
import AuthDeckLook

/// The deck's loop below the binary: a scripted terminal feeds keys and a resize to the real
/// runtime on a real store, and the frames it draws are read back — keys become actions,
/// effects run off the loop through `DeckWork` and their results come back as frames.
struct DeckLoopTests {
    /// A terminal that plays a script: keys and resizes, and waits for a frame that shows a text.
    final class ScriptedScreen: TerminalScreen {
        enum Step {
            case input(CursesScreen.Input)
            case until(String)
        }
        var width = 100, height = 30
        var steps: [Step]
        var frames: [ScreenBuffer] = []
        var failure: String?
        var started = false, stopped = false
        private var waitingSince: Date?
        /// A frame drawn since the current `until` step began showed its text.
        private var seen = false

        init(_ steps: [Step]) { self.steps = steps }

        func start() { started = true }
        func stop() { stopped = true }

        func read(milliseconds: Int32) -> CursesScreen.Input? {
            guard let step = steps.first else { return .key(.char("q")) }
            switch step {
            case .input(let input):
                steps.removeFirst()
                if case let .resize(w, h) = input { (width, height) = (w, h) }
                return input
            case .until(let text):
                // Any frame since the step began counts: a message can be replaced by the next
                // one (a renewal's) before the step is looked at again.
                if seen {
                    steps.removeFirst()
                    (seen, waitingSince) = (false, nil)
                    return nil
                }
                let since = waitingSince ?? Date()
                waitingSince = since
                if Date().timeIntervalSince(since) > 60 {
                    failure = "no frame showed \"\(text)\" in 60 s; the last:\n\(frames.last?.text ?? "none")"
                    steps.removeAll()
                }
                usleep(10_000)
                return nil
            }
        }

        func draw(_ frame: ScreenBuffer, theme: Theme) -> ScreenBuffer {
            frames.append(frame)
            if case .until(let text)? = steps.first, frame.text.contains(text) { seen = true }
            return frame
        }
    }

    /// On the main actor, as the deck runs: the loop blocks its thread, and the work it hands
    /// off needs the others.
    @MainActor
    @Test func keysEffectsAndResizesReachTheFramesAndQEndsTheLoop() throws {
        let dir = TempDirectory("authdeck-loop")
        let env = ["HOME": dir.path, "XDG_DATA_HOME": dir.file("data"), "XDG_CONFIG_HOME": dir.file("config"), "PATH": "/usr/bin:/bin"]
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: env), clock: SystemClock())
        for stored in DeckFixture(now: SystemClock().now()).accounts { try store.insert(stored) }
        try FileManager.default.createDirectory(atPath: dir.file("config/authdeck"), withIntermediateDirectories: true)
        try DeckFixture.configTOML.write(toFile: dir.file("config/authdeck/config.toml"), atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: dir.file("config/authdeck/config.toml"), required: true)
        let before = try store.accountRows(includeQuarantined: false).count
        #expect(before > 5)

        let screen = ScriptedScreen([
            .until("jiro@contoso.com"),
            // The filter, typed into the deck: only jiro's rows are left.
            .input(.key(.char("/"))), .input(.key(.char("j"))), .input(.key(.char("i"))), .input(.key(.enter)),
            .until("/ji"),
            .input(.key(.escape)),
            // Prune through the window: done off the loop in the real store, said in a frame.
            .input(.key(.char("p"))), .until("stale accounts?"), .input(.key(.char("y"))),
            .until("press u to undo"),
            .input(.key(.char("u"))), .until("Restored"),
            // A smaller terminal: the next frame has its size.
            .input(.resize(width: 60, height: 15)), .until("authdeck"),
        ])
        let firstRead = FirstRead(store) { try DeckWork.load(store: store, config: config, now: SystemClock().now(), selected: nil) }
        let notes = Mutex<[String]>([])
        let runtime = DeckRuntime(wiring: ProviderWiring(store: store, clock: SystemClock(), environment: env), config: config, environment: env,
                                  themes: [Theme.standard], ascii: false, executor: ThreadExecutor(),
                                  notify: { line in notes.withLock { $0.append(line) } })
        let signal = runtime.run(screen: screen, firstRead: firstRead)

        #expect(screen.failure == nil, "\(screen.failure ?? "")")
        #expect(signal == nil, "q ends the deck with no signal")
        #expect(screen.started && screen.stopped)
        // A store read still running at q is finished before leaving, never abandoned.
        #expect(!notes.withLock { $0 }.contains { $0.contains("unfinished") }, "\(notes.withLock { $0 })")
        let filtered = try #require(screen.frames.first { $0.text.contains("/ji") })
        #expect(!filtered.text.contains("hanako@contoso.com") && filtered.text.contains("jiro@contoso.com"), "\(filtered.text)")
        #expect(screen.frames.last?.width == 60 && screen.frames.last?.height == 15)
        // Pruned and restored in the store itself: every account is back.
        #expect(try store.accountRows(includeQuarantined: false).count == before)
        #expect(try store.accountRows(includeQuarantined: true).count == before, "nothing left in the quarantine")
    }
}
