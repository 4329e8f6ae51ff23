import Foundation
import TOMLKit
import AuthDeckLook
import AuthDeckPlatform

/// Reads theme files: `[role]` tables with `fg`, `bg`, `bold`, `reverse`, `underline`, `dim`.
/// A file may set any subset of roles (the rest come from the default); anything unknown or
/// mistyped is an error naming the file, the role and the key.
public enum ThemeLoader {
    public static func parse(_ text: String, name: String, path: String) throws -> Theme {
        let root = try TOMLDocument.parse(text, path: path)
        var theme = Theme(name: name, styles: Theme.standard.styles)
        let top = TableReader(table: root, path: path, location: nil)
        try top.rejectUnknown(Role.allCases.map(\.rawValue))
        for role in Role.allCases {
            guard let t = try top.table(role.rawValue, location: "[\(role.rawValue)]") else { continue }
            try t.rejectUnknown(["fg", "bg", "bold", "reverse", "underline", "dim"])
            var style = Theme.Style()
            for key in ["fg", "bg"] {
                guard let value = try t.string(key) else { continue }
                guard let color = Theme.Color(rawValue: value) else {
                    throw t.fail("\"\(key)\" must be one of \(Theme.Color.allCases.map(\.rawValue).joined(separator: ", ")) (found \"\(value)\")")
                }
                if key == "fg" { style.fg = color } else { style.bg = color }
            }
            func flag(_ k: String) throws -> Bool {
                guard let v = t.table[k] else { return false }
                guard let b = v.bool else { throw t.fail("\"\(k)\" must be true or false (found \(TableReader.describe(v)))") }
                return b
            }
            style.bold = try flag("bold")
            style.reverse = try flag("reverse")
            style.underline = try flag("underline")
            style.dim = try flag("dim")
            theme.styles[role] = style
        }
        return theme
    }

    /// Reads the theme file at `path`, refused (as config.toml is) when others could have
    /// written it or the directories above it, up to `home`.
    public static func load(_ path: String, home: String? = nil) throws -> Theme {
        if let problem = TrustedPath.problem(path, home: home) {
            throw ConfigError(path: path, location: nil, problem: problem)
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigError(path: path, location: nil, problem: "cannot read the theme file")
        }
        return try parse(text, name: ((path as NSString).lastPathComponent as NSString).deletingPathExtension, path: path)
    }
}
