import AuthDeckCore

/// Which sign-in flow runs: one rule for `authdeck login`, the deck's `a` and its re-sign-in.
public enum SignInFlowChoice {
    /// The command line can ask for anything: the flow asked for, else the provider's `flow`,
    /// else the first flow the provider offers.
    public static func forCommandLine(_ requested: SignInFlow?, adapter: any ProviderAdapter) -> SignInFlow {
        requested ?? adapter.profile.flow ?? adapter.capabilities.flows.first ?? .device
    }

    /// The deck shows a device code or opens a browser but never asks for a password: the
    /// provider's `flow` when it is one of those, else device, else browser; nil when the
    /// provider offers neither — and nil rather than a browser for a provider whose `flow` is
    /// something else (a password): a browser window its people were never meant to use waited
    /// for an approval nobody would give (issue 31: the demo's OAM account).
    public static func forDeck(_ adapter: any ProviderAdapter) -> SignInFlow? {
        let offered = adapter.capabilities.flows
        let configured = adapter.profile.flow
        let browserAllowed = configured == nil || configured == .browser
        return [configured, .device, browserAllowed ? .browser : nil].compactMap { $0 }
            .first { offered.contains($0) && ($0 == .device || $0 == .browser) }
    }

    /// What the deck says when `forDeck` finds nothing.
    public static func deckCannotSignIn(_ providerId: String) -> String {
        "\(providerId) signs in with a password: run `authdeck login \(providerId) --password`"
    }
}
