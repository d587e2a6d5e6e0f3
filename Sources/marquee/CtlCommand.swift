import ArgumentParser
import Foundation
import MarqueeControl
import MarqueeCore
import MarqueeSession

/// `marquee ctl [--socket PATH] COMMAND [ARGS]`: one request to a running player, its reply
/// printed (a table for `status`, the JSON line with `--json`); `watch` and `observe` print events
/// until interrupted. Exit 0 on success, 1 on an error reply or when no player answers.
struct CtlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Steer a running player through its control socket: status, next, seek 1:23, load other.yaml, watch, screenshot -o now.png.",
        discussion: """
        `status`, `watch [EVENT...]` (subscribe and print events until interrupted), `raw JSON` (one request line as it is), and:
        \(ControlCommandLine.commandList)
        """
    )

    @Option(help: "The player's control socket (default: $RUNTIME_DIRECTORY/control.sock, else /run/marquee/control.sock when it exists, else $XDG_RUNTIME_DIR/marquee.sock).")
    var socket: String?

    @Flag(help: "Print the reply as the JSON line the player sent.")
    var json = false

    @Flag(help: "With load: add the config's items after the playlist's instead of replacing it.")
    var append = false

    @Flag(help: "With load: reply once the player has the playlist, after its remote items are downloaded and verified (raise --timeout for large ones).")
    var wait = false

    @Option(name: [.customShort("o"), .customLong("output")], help: "With screenshot: the PNG file to write.")
    var output: String?

    @Option(help: "With displays: the screen the command is for, by its name (status, seek, screenshot and the playback commands; default the main screen).")
    var screen: String?

    @Option(help: "Seconds to wait for the reply.")
    var timeout: Double = 10

    @Option(help: "With observe at: the item (0-based) whose times to observe.")
    var item: Int?

    @Argument(help: "The command and its values.", completion: .list(["watch", "raw"] + ControlVocabulary.names))
    var words: [String] = []

    func run() throws {
        let path = socket ?? ControlSocketLocation.clientPath()
        let request: String
        do {
            request = try requestLine()
        } catch let usage as ControlCommandLine.Usage {
            Console.writeError("error: \(usage.description)")
            throw ExitCode(1)
        }
        let client: ControlSocketClient
        do {
            client = try ControlSocketClient(path: path, timeout: timeout)
        } catch {
            Console.writeError("error: \(error)")
            throw ExitCode(1)
        }
        defer { client.close() }
        do {
            try client.send(request)
            guard let reply = try client.readLine(timeout: timeout) else {
                Console.writeError("error: the player at \(path) closed the connection without replying")
                throw ExitCode(1)
            }
            try show(reply)
            if words.first == "watch" || words.first == "observe" {
                while let line = try client.readLine(timeout: nil) { Self.write(line + "\n") }
            }
        } catch let error as ControlSocketError {
            Console.writeError("error: \(path): \(error)")
            throw ExitCode(1)
        }
    }

    private func requestLine() throws -> String {
        switch words.first {
        case "raw":
            guard words.count == 2 else { throw ControlCommandLine.Usage(description: "usage: marquee ctl raw '{\"command\":\"status\"}'") }
            return words[1]
        case "watch":
            let events = Array(words.dropFirst())
            var request: [String: Any] = events.isEmpty ? ["command": "subscribe"] : ["command": "subscribe", "events": events]
            request["screen"] = screen
            return Self.line(request)
        case "screenshot":
            guard words.count <= 2, output != nil else { throw ControlCommandLine.Usage(description: "usage: marquee ctl screenshot [SCREEN] -o FILE.png") }
            let named = words.count == 2 ? words[1] : screen
            return Self.line(named.map { ["command": "screenshot", "screen": $0] } ?? ["command": "screenshot"])
        default:
            var request = try ControlCommandLine.request(words, workingDirectory: FileManager.default.currentDirectoryPath, append: append, wait: wait)
            if let item {
                guard words.first == "observe" else { throw ControlCommandLine.Usage(description: "--item goes with observe at") }
                request["item"] = item
            }
            // Whether the command takes a screen is the player's to say, in its reply.
            if let screen { request["screen"] = screen }
            return Self.line(request)
        }
    }

    /// Prints the reply: its JSON line, a status table, a written screenshot; false replies exit 1.
    private func show(_ reply: String) throws {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any] else {
            Console.writeError("error: the player sent something that is not a JSON object: \(reply.prefix(200))")
            throw ExitCode(1)
        }
        guard object["ok"] as? Bool == true else {
            if json { Self.write(reply + "\n") }
            Console.writeError("error: \(object["error"] as? String ?? "the player refused the request")")
            for line in object["diagnostics"] as? [String] ?? [] { Console.writeError(line) }
            throw ExitCode(1)
        }
        if words.first == "screenshot", let output {
            guard let base64 = object["png"] as? String, let png = Data(base64Encoded: base64) else {
                Console.writeError("error: the player's screenshot reply has no PNG")
                throw ExitCode(1)
            }
            do {
                try png.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                Console.writeError("error: \(output): \(error.localizedDescription)")
                throw ExitCode(1)
            }
            if json { Self.write(reply.replacingOccurrences(of: base64, with: "…") + "\n") }
            return
        }
        if json || words.first == "watch" || words.first == "observe" || words.first == "raw" {
            Self.write(reply + "\n")
        } else if words.first == "status" {
            do {
                Self.write(StatusTable.text(try StatusCoding.document(reply)))
            } catch {
                // A player of another version: its line as sent, rather than nothing.
                Console.writeError("warning: the player's status does not read as this version's (\(error)); its reply as sent:")
                Self.write(reply + "\n")
            }
        } else if object.keys.contains(where: { $0 != "ok" && $0 != "id" }) {
            Self.write(reply + "\n")
        }
    }

    /// Straight to standard output, unbuffered: watch and observe print events as they come, to a
    /// pipe too.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func line(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
