import Foundation
import AuthDeckCore
import AuthDeckTerminal

/// Shows sign-in prompts on stderr (stdout stays clean for `--json` and scripts), through the
/// command's output, and reads a yes or no from its input.
struct CLIPresenter: SignInPresenter {
    let clock: any WallClock
    let output: any CommandOutput
    let input: any CommandInput

    init(_ context: DeckContext) {
        (clock, output, input) = (context.clock, context.output, context.input)
    }

    func present(_ prompt: SignInPrompt) async {
        switch prompt {
        case let .deviceCode(userCode, uri, complete, message, expiresAt):
            // The provider's own sentence when it sends one (Microsoft does), else ours.
            var text = message.map { TerminalText.inert($0) + "\n" }
                ?? "To sign in, open \(uri) in a browser (on any device) and enter the code \(userCode)\n"
            if let complete { text += "or open \(complete)\n" }
            text += "The code expires \(ExpiryText.describe(expiresAt, now: clock.now())). Waiting…\n"
            output.note(text)
        case let .browser(url, opened):
            output.note(opened ? "Opened your browser to sign in. If it did not appear, open:\n\(url)\nWaiting…"
                               : "Open this URL in a browser on this machine to sign in:\n\(url)\nWaiting…")
        case .notice(let text):
            output.note(text)
        }
    }

    /// Asks on the terminal; without one (scripts, CI) the answer is no.
    func confirm(_ question: String) async -> Bool {
        guard TerminalProbe.isInteractive else { return false }
        output.stderr("\(question) [Y/n] ")
        let answer = (input.readLine() ?? "n").trimmingCharacters(in: .whitespaces).lowercased()
        return answer.isEmpty || answer == "y" || answer == "yes"
    }
}
