extension SignInPrompt {
    /// The device-code prompt, refused when the provider's fields are not fit to show: the one
    /// door every device flow (RFC 8628, Facebook's own) goes through before a person sees them.
    ///
    /// `verification_uri` and `verification_uri_complete` must pass `WebLink.problemShowing`;
    /// `user_code` must be printable (letters, digits, punctuation, symbols and plain spaces, at
    /// most 64 characters): a code holding an escape sequence, a bidi override or a line break
    /// would rewrite the screen the person is reading it from.
    public static func checkedDeviceCode(userCode: String, verificationURI: String, verificationURIComplete: String?,
                                         message: String?, expiresAt: Instant, host: String) throws(AuthFailure) -> SignInPrompt {
        func refuse(_ problem: String) -> AuthFailure {
            AuthFailure(.misconfigured, code: "bad_response", remedy: "\(host) answered the device request unfit to show: \(problem); nothing was shown")
        }
        if let problem = WebLink.problemShowing(verificationURI, field: "verification_uri") { throw refuse(problem) }
        if let complete = verificationURIComplete,
           let problem = WebLink.problemShowing(complete, field: "verification_uri_complete") { throw refuse(problem) }
        guard isPrintableCode(userCode) else {
            throw refuse("user_code is empty, longer than 64 characters or holds control, format or line-break characters (\(WebLink.excerpt(userCode)))")
        }
        return .deviceCode(userCode: userCode, verificationURI: verificationURI, verificationURIComplete: verificationURIComplete,
                           message: message, expiresAt: expiresAt)
    }

    /// Letters, marks, digits, punctuation, symbols and U+0020; 1 to 64 of them.
    static func isPrintableCode(_ code: String) -> Bool {
        let scalars = code.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= 64 else { return false }
        return scalars.allSatisfy { s in
            if s.value == 0x20 { return true }
            switch s.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
                 .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                 .initialPunctuation, .finalPunctuation, .otherPunctuation,
                 .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
                return true
            default:
                return false
            }
        }
    }
}
