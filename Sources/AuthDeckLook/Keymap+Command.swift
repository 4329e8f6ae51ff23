extension Keymap {
    /// What a key asks of the deck, whichever key it was: the reducer switches on these, so a
    /// user's own key works wherever the command means something.
    public enum Command: Hashable, Sendable, CaseIterable {
        // The deck (and, for moving and quitting, the windows).
        case moveUp, moveDown, pageUp, pageDown, first, last
        case switchPane, renew, renewAll, filter, sort, prune, undoPrune, add, logout, makeDefault, nextTheme, help, quit
        // The windows.
        /// Do what the window asks (prune, sign out).
        case confirm
        /// Sign an OAM account out and clear its registration too.
        case confirmAndClearRegistration
        /// Answer no: the window closes, nothing done.
        case decline
        /// Close the window (a sign-in under way stops); in the deck, clear the filter.
        case cancel
        /// Take the list's selected entry (the add window's provider).
        case choose
        /// Open the sign-in page in the browser again.
        case openInBrowser
        // The agent window: a host asking for an account's credential.
        /// Hand this one request's credential over.
        case allowOnce
        /// Hand it over, and every later request for the account through the same `authdeck ssh`.
        case allowForConnection
        /// Refuse it: the remote command gets `status=refused` and exits 3.
        case deny
    }
}
