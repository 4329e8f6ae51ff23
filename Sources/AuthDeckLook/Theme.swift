/// How each role looks: a foreground and background colour and attributes.
///
/// Colours are the 8 curses colours (plus `default`, the terminal's own); a theme file names
/// them per role and may leave roles out (they keep the default theme's look).
public struct Theme: Equatable, Sendable {
    public enum Color: String, CaseIterable, Sendable {
        case `default`, black, red, green, yellow, blue, magenta, cyan, white
    }

    public struct Style: Equatable, Sendable {
        public var fg: Color
        public var bg: Color
        public var bold = false
        public var reverse = false
        public var underline = false
        public var dim = false

        public init(fg: Color = .default, bg: Color = .default, bold: Bool = false, reverse: Bool = false,
                    underline: Bool = false, dim: Bool = false) {
            self.fg = fg
            self.bg = bg
            self.bold = bold
            self.reverse = reverse
            self.underline = underline
            self.dim = dim
        }
    }

    public var name: String
    public var styles: [Role: Style]

    public init(name: String, styles: [Role: Style]) {
        self.name = name
        self.styles = styles
    }

    public func style(_ role: Role) -> Style { styles[role] ?? Theme.standard.styles[role] ?? Style() }

    /// The built-in default (also what `themes/default.toml` says).
    public static let standard = Theme(name: "default", styles: [
        .normal: Style(), .header: Style(fg: .black, bg: .cyan, bold: true), .border: Style(fg: .blue), .dim: Style(dim: true),
        .accent: Style(fg: .cyan, bold: true), .selection: Style(reverse: true), .status: Style(fg: .white, bg: .blue),
        .modal: Style(), .valid: Style(fg: .green), .expiringSoon: Style(fg: .yellow, bold: true), .expired: Style(fg: .red),
        .needsSignIn: Style(fg: .magenta, bold: true), .stale: Style(fg: .yellow, dim: true), .failed: Style(fg: .red, bold: true),
    ])

    /// No colour at all (NO_COLOR, monochrome terminals): states still differ by attribute
    /// and by their badge symbols.
    public static let monochrome = Theme(name: "monochrome", styles: [
        .normal: Style(), .header: Style(reverse: true), .border: Style(), .dim: Style(dim: true), .accent: Style(bold: true),
        .selection: Style(reverse: true), .status: Style(reverse: true), .modal: Style(), .valid: Style(),
        .expiringSoon: Style(bold: true), .expired: Style(underline: true), .needsSignIn: Style(bold: true, underline: true),
        .stale: Style(dim: true), .failed: Style(bold: true, reverse: true),
    ])
}
