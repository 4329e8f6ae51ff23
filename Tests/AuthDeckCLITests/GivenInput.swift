import Foundation
import Synchronization
@testable import AuthDeckCLI

/// A test's standard input for a command run in-process: what git, docker or a person would
/// have written to it, read once.
final class GivenInput: CommandInput {
    private let rest: Mutex<[UInt8]>

    init(_ text: String = "") { rest = Mutex(Array(text.utf8)) }

    func readToEnd() -> Data {
        rest.withLock { rest in
            defer { rest = [] }
            return Data(rest)
        }
    }

    func readLine() -> String? {
        rest.withLock { rest in
            guard !rest.isEmpty else { return nil }
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            let line = String(decoding: rest[..<end], as: UTF8.self)
            rest = Array(rest[min(end + 1, rest.endIndex)...])
            return line
        }
    }
}
