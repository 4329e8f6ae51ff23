import ArgumentParser
import Foundation

/// The bash completion script ArgumentParser generates, registered without `-o filenames`.
///
/// With that option readline treats every candidate as a path: it lists only the part after
/// the last `/`, so the account ids (`work/3282a92f`) read as bare hex and `provider/username`
/// pairs of a shared username read as that username several times, and it inserts `@` as `\@`.
/// Nothing authdeck completes is a file, so the candidates are plain words, listed whole.
enum BashCompletionScript {
    static let generated = "complete -o filenames -F "
    static let registered = "complete -F "

    /// The script `--generate-completion-script bash` prints.
    static func text() -> String {
        AuthDeckCommand.completionScript(for: .bash).replacingOccurrences(of: generated, with: registered)
    }

    /// Whether `args` ask for the bash script, in either spelling ArgumentParser accepts.
    static func isRequested(_ args: [String]) -> Bool {
        args == ["--generate-completion-script", "bash"] || args == ["--generate-completion-script=bash"]
    }
}
