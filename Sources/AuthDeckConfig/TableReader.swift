import TOMLKit
import AuthDeckCore

/// Typed, well-worded access to one TOML table of the config.
struct TableReader {
    let table: TOMLTable
    let path: String
    /// Where this table is, for messages (`provider "work"`, `[prune]`); nil at top level.
    let location: String?

    func fail(_ problem: String) -> ConfigError {
        ConfigError(path: path, location: location, problem: problem)
    }

    /// Errors on the first key not in `allowed`, suggesting the closest allowed key.
    func rejectUnknown(_ allowed: [String], hint: [String: String] = [:]) throws {
        for key in table.keys.sorted() where !allowed.contains(key) {
            if let h = hint[key] { throw fail("\"\(key)\": \(h)") }
            if let guess = Spelling.nearest(key, in: allowed, within: 2) {
                throw fail("unknown key \"\(key)\" (did you mean \"\(guess)\"?)")
            }
            throw fail("unknown key \"\(key)\"; known keys: \(allowed.joined(separator: ", "))")
        }
    }

    static func describe(_ v: TOMLValueConvertible) -> String {
        switch v.type {
        case .table: return "a table"
        case .array: return "an array"
        case .string: return "a string"
        case .int: return "an integer"
        case .double: return "a number"
        case .bool: return "a boolean"
        case .date, .time, .dateTime: return "a date/time"
        }
    }

    func string(_ key: String) throws -> String? {
        guard let v = table[key] else { return nil }
        guard let s = v.string else { throw fail("\"\(key)\" must be a string (found \(Self.describe(v)))") }
        return s
    }

    func requiredString(_ key: String) throws -> String {
        guard let s = try string(key) else { throw fail("\"\(key)\" is required") }
        guard !s.trimmingWhitespace().isEmpty else { throw fail("\"\(key)\" must not be empty") }
        return s
    }

    func stringArray(_ key: String) throws -> [String]? {
        guard let v = table[key] else { return nil }
        guard let array = v.array else {
            throw fail("\"\(key)\" must be an array of strings (found \(Self.describe(v)))")
        }
        return try array.enumerated().map { index, element in
            guard let s = element.string else {
                throw fail("\"\(key)\" must be an array of strings (item \(index + 1) is \(Self.describe(element)))")
            }
            return s
        }
    }

    func duration(_ key: String, extra: String = "") throws -> TimeSpan? {
        guard let v = table[key] else { return nil }
        let suffix = extra.isEmpty ? "" : " \(extra)"
        if let n = v.int, n >= 0 { return .seconds(Int64(n)) }
        guard let s = v.string, let span = TimeSpan(parsing: s) else {
            throw fail("\"\(key)\" must be a duration such as \"10m\", \"12h\" or \"90d\"\(suffix) (found \(v.debugDescription))")
        }
        return span
    }

    func table(_ key: String, location: String) throws -> TableReader? {
        guard let v = table[key] else { return nil }
        guard let t = v.table else { throw fail("\"\(key)\" must be a table (found \(Self.describe(v)))") }
        return TableReader(table: t, path: path, location: location)
    }

    /// A table whose values are all strings (or, with `scalars`, ints and booleans too,
    /// turned into their text).
    func stringTable(_ key: String, scalars: Bool) throws -> [String: String] {
        guard let v = table[key] else { return [:] }
        guard let t = v.table else { throw fail("\"\(key)\" must be a table (found \(Self.describe(v)))") }
        var out: [String: String] = [:]
        for name in t.keys {
            let item = t[name]!
            if let s = item.string {
                out[name] = s
            } else if scalars, let i = item.int {
                out[name] = String(i)
            } else if scalars, let b = item.bool {
                out[name] = String(b)
            } else {
                let kind = scalars ? "a string, integer or boolean" : "a string"
                throw fail("\"\(key).\(name)\" must be \(kind) (found \(Self.describe(item)))")
            }
        }
        return out
    }
}
