import Foundation
import Synchronization
@testable import AuthDeckCLI

/// A test's stdout and stderr: what a command run in-process (`run(in:)`) wrote.
final class CapturedOutput: CommandOutput {
    private let text = Mutex((out: [UInt8](), err: ""))
    /// stdout as text (a streamed listing's pieces joined before decoding).
    var out: String { text.withLock { String(decoding: $0.out, as: UTF8.self) } }
    var err: String { text.withLock { $0.err } }
    func raw(_ t: String) { text.withLock { $0.out += Array(t.utf8) } }
    func bytes(_ buffer: UnsafeRawBufferPointer) { text.withLock { $0.out += Array(buffer) } }
    func stderr(_ t: String) { text.withLock { $0.err += t } }
}
