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

    /// ArgumentParser's entry function, renamed so `wholeWords` can wrap it.
    static let entry = "\n_authdeck() {\n"
    static let wrapped = "\n__authdeck_words() {\n"

    /// Completes account words holding `@` (every email username). bash splits the word at
    /// COMP_WORDBREAKS, so ArgumentParser's function saw `taro` and `@con` as two words and
    /// completed nothing after an `@`.
    static let wholeWords = #"""
# bash splits a word at the characters in COMP_WORDBREAKS (`taro@contoso.com` at `@`) and
# replaces only what follows the last of them (from an `@` or `$` on, readline's special
# prefixes): complete the whole word, then offer only that part of each candidate.
_authdeck() {
    local -r line="${COMP_LINE:0:COMP_POINT}"
    local -r word="${line##*[[:space:]]}"
    local -i cut=${#word}
    while (( cut > 0 )) && [[ "${COMP_WORDBREAKS}" != *"${word:cut-1:1}"* ]]; do cut=cut-1; done
    if (( cut == 0 )) || [[ "${word}" == *[\"\'\\]* ]]; then
        __authdeck_words "${@}"
        return
    fi
    [[ "${word:cut-1:1}" == [@\$] ]] && cut=cut-1
    local -a COMP_WORDS
    read -ra COMP_WORDS <<< "${line}"
    local -i COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    __authdeck_words "${1}" "${word}" "${COMP_WORDS[COMP_CWORD-1]}"
    local -r head="${word:0:cut}"
    COMPREPLY=("${COMPREPLY[@]#"${head}"}")
}

"""#

    /// The script `--generate-completion-script bash` prints.
    static func text() -> String {
        AuthDeckCommand.completionScript(for: .bash)
            .replacingOccurrences(of: entry, with: wrapped)
            .replacingOccurrences(of: generated, with: wholeWords + registered)
    }

    /// Whether `args` ask for the bash script, in either spelling ArgumentParser accepts.
    static func isRequested(_ args: [String]) -> Bool {
        args == ["--generate-completion-script", "bash"] || args == ["--generate-completion-script=bash"]
    }
}
