extension SignInResult {
    /// The result as it may be saved: refused when who signed in holds a control character.
    ///
    /// Why: the store keeps subject, username and realm as SQLite text, which ends at a NUL when
    /// read back, while each account's seal binds the whole value. `bob\u{0}evil` would be saved,
    /// read back as `bob` (a second account indistinguishable from the real one, `bob` ambiguous)
    /// and then refused forever as "changed without the key". A line break or an escape in them would
    /// split git's `username=` answer or lie on a terminal. So every adapter's result passes here
    /// before anything is saved (`SignInCoordinator`, `MSALImport`); nothing of it is stored.
    /// The display name routes nothing and is only shown: its controls become U+FFFD instead of
    /// refusing a person whose directory entry carries one.
    public func checkedIdentity(provider: String) throws(AuthFailure) -> SignInResult {
        for (field, value) in [("subject", subject), ("username", username), ("realm (tenant)", realm ?? "")] {
            if let problem = Self.controlProblem(value) {
                throw AuthFailure(.misconfigured, code: "bad_claim", remedy: "\(provider) named the account with a \(field) holding \(problem) "
                                  + "(\(WebLink.excerpt(value))); nothing was saved: the account's \(field) must be fixed at the provider")
            }
        }
        var checked = self
        if Self.controlProblem(displayName) != nil {
            let replacement: Unicode.Scalar = "\u{FFFD}"
            checked.displayName = String(String.UnicodeScalarView(displayName.unicodeScalars.map {
                Self.unfit.contains($0.properties.generalCategory) ? replacement : $0
            }))
        }
        return checked
    }

    /// Characters no name is made of: controls (C0, DEL, C1: Cc) and the invisible ones — format
    /// characters (zero-width spaces and joiners, bidi overrides: Cf) and line or paragraph
    /// separators — with which a second account could look exactly like the first ("bob" and
    /// "bob\u{200B}").
    static let unfit: [Unicode.GeneralCategory] = [.control, .format, .lineSeparator, .paragraphSeparator]

    /// Which unfit character `text` holds first, named with its code point and place; nil when none.
    public static func controlProblem(_ text: String) -> String? {
        guard let found = text.unicodeScalars.enumerated().first(where: { unfit.contains($0.element.properties.generalCategory) }) else {
            return nil
        }
        let hex = String(found.element.value, radix: 16, uppercase: true)
        let what = found.element.properties.generalCategory == .control ? "the control character" : "the invisible character"
        return what + " U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + " at character \(found.offset + 1)"
    }
}
