import AuthDeckCore

/// A config problem worded as "file: where: what is wrong", never "key not found".
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var path: String
    /// `provider "work"`, `[prune]`, `line 3, column 17` — where in the file.
    public var location: String?
    public var problem: String

    public init(path: String, location: String?, problem: String) {
        self.path = path
        self.location = location
        self.problem = problem
    }

    public var description: String {
        [path, location, problem].compactMap { $0 }.joined(separator: ": ")
    }
}

extension ConfigError: ReportedError {
    public var sentence: String { description }
    public var exitStatus: Int32 { ExitStatus.failure }
}
