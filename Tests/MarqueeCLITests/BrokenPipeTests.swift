import Foundation
import Testing

/// Readers that go away: `marquee play … 2>&1 | head -1`, a journald restart, an events FIFO whose
/// reader quits, a full disk. The player must survive each (SIGPIPE ignored), say so once where it
/// still can, and play its playlist to the end.
@Suite(.serialized) struct BrokenPipeTests {
    static let itemCount = 80
    /// Linux's F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7), which Glibc's Swift module does not export.
    static let setPipeSize: Int32 = 1031

    /// 80 half-second stills: two journal lines and several events each, 12 KB of stderr and more of
    /// events, well past a one-page pipe, so the player is still writing when the reader has gone.
    private func writePlaylist(in folder: URL) throws -> String {
        let name = "pipes-\(UUID().uuidString).yaml"
        let items = String(repeating: "    - url: still.png\n      duration: 0.5\n", count: Self.itemCount)
        try Data("playlist:\n  repeat: off\n  items:\n\(items)".utf8).write(to: folder.appendingPathComponent(name))
        return name
    }

    private func player(_ arguments: [String], in folder: URL) throws -> Process {
        let process = Process()
        process.executableURL = try MarqueeProcess.executable()
        process.arguments = ["play"] + arguments + ["--output", "headless:160x90", "--audio", "null", "--input", "none",
                                                    "--clock", "fast", "--exit-when-idle"]
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        return process
    }

    /// A pipe of one page (the least Linux allows), both ends close-on-exec.
    private func onePagePipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        // Only the end the player is given (dup'ed onto its stderr) must reach it.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], Self.setPipeSize, Int32(4096))
        return (ends[0], ends[1])
    }

    /// Reads byte by byte up to the first newline, so nothing past it is taken out of the pipe;
    /// gives up after 20 s without data.
    /// One whole event line: a JSON object with its name. (Its keys are sorted, so a line need not
    /// begin with `event`: a reader that opened just before `durationAvailable` read
    /// `{"duration":0.5,"event":"durationAvailable",...}` first, and a prefix check failed it.)
    static func isWholeEvent(_ line: String) -> Bool {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["event"] is String
    }

    private func firstLine(of descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&waiting, 1, 20_000) > 0 {
            let count = read(descriptor, &byte, 1)
            if count < 0 && errno == EAGAIN { continue }
            if count != 1 || byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Waits up to 60 s; a process still running then is killed and the test fails on its status.
    private func exitStatus(_ process: Process) -> (reason: Process.TerminationReason, status: Int32) {
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }

    private func events(at url: URL) -> [[String: Any]] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap {
            try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
        }
    }

    @Test func aStderrReaderThatQuitsAfterTheFirstLineIsSurvived() throws {
        let folder = try PlayCommandTests.workspace.get()
        let config = try writePlaylist(in: folder)
        let eventsURL = folder.appendingPathComponent("pipes-events-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: eventsURL) }
        let process = try player([config, "--events", eventsURL.path], in: folder)
        let stderr = onePagePipe()
        // This test closes the write end itself, right after the launch: a handle that closed it
        // again on dealloc would close whatever descriptor another test had opened by then under
        // the same number (a concurrent test's pipe read EBADF, or read nothing, that way).
        process.standardError = FileHandle(fileDescriptor: stderr.write, closeOnDealloc: false)
        try process.run()
        close(stderr.write)
        // `| head -1`: one line, then the reader is gone.
        let line = firstLine(of: stderr.read)
        close(stderr.read)
        let (reason, status) = exitStatus(process)
        #expect(line.hasPrefix("info: "), "\(line)")
        #expect(reason == .exit && status == 0, "ended by \(reason == .exit ? "exit" : "signal") \(status)")
        let played = events(at: eventsURL)
        let started = played.filter { $0["event"] as? String == "itemStarted" }.compactMap { $0["index"] as? Int }
        #expect(started == Array(0..<Self.itemCount), "\(started.count) items started")
        #expect(played.contains { $0["event"] as? String == "itemEnded" && $0["index"] as? Int == Self.itemCount - 1
                && $0["reason"] as? String == "playbackEnded" })
    }

    @Test func eventsToAFullDeviceAreOneWarningAndPlaybackGoesOn() throws {
        let folder = try PlayCommandTests.workspace.get()
        let config = try writePlaylist(in: folder)
        // /dev/full through a link of the test's own: a player that replaces the events path by a
        // new file (as Marquee once did, renaming a temporary file over it) replaces the link, not
        // the machine's /dev/full when the tests run as root.
        let full = folder.appendingPathComponent("pipes-full-\(UUID().uuidString)").path
        #expect(symlink("/dev/full", full) == 0)
        defer { unlink(full) }
        let process = try player([config, "--events", full], in: folder)
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let (reason, status) = exitStatus(process)
        #expect(reason == .exit && status == 0)
        let warnings = text.split(separator: "\n").filter { $0.contains(full) }
        #expect(warnings == ["warning: events: cannot write to \(full): No space left on device; events are lost until it can"], "\(text)")
        #expect(text.contains("item \(Self.itemCount)/\(Self.itemCount) ended (playbackEnded)"), "\(text)")
    }

    @Test func anEventsFIFOWhoseReaderQuitsIsOneWarningAndPlaybackGoesOn() throws {
        let folder = try PlayCommandTests.workspace.get()
        let config = try writePlaylist(in: folder)
        let fifo = folder.appendingPathComponent("pipes-events-\(UUID().uuidString).fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // The reader is there first, so the player's open finds it; one page, so the player soon
        // waits on the reader. Not blocking: a player that replaced the FIFO by a file would never come.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        _ = fcntl(reader, Self.setPipeSize, Int32(4096))
        let process = try player([config, "--events", fifo], in: folder)
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let line = firstLine(of: reader)
        close(reader)
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let (reason, status) = exitStatus(process)
        #expect(Self.isWholeEvent(line), "\(line)")
        #expect(reason == .exit && status == 0, "ended by \(reason == .exit ? "exit" : "signal") \(status)")
        let warnings = text.split(separator: "\n").filter { $0.contains(fifo) }
        #expect(warnings == ["warning: events: cannot write to \(fifo): Broken pipe; events are lost until it can"], "\(text)")
        #expect(text.contains("item \(Self.itemCount)/\(Self.itemCount) ended (playbackEnded)"), "\(text)")
    }

    /// `--events FIFO` with nobody reading yet: open(2) for writing waited for a reader, and the
    /// player never started. Now it plays at once, says once that events are lost, and a reader
    /// that comes later gets the events from then on.
    @Test func anEventsFIFOWithNoReaderYetDoesNotHoldThePlayer() throws {
        let folder = try PlayCommandTests.workspace.get()
        let config = try writePlaylist(in: folder)
        let fifo = folder.appendingPathComponent("pipes-unread-\(UUID().uuidString).fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let process = try player([config, "--events", fifo], in: folder)
        process.arguments = process.arguments!.filter { $0 != "--clock" && $0 != "fast" }
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // Playing without a reader: the second item starts 0.5 s in.
        let journal = stderr.fileHandleForReading
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        var ready = pollfd(fd: journal.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while !text.contains("item 2/\(Self.itemCount) started") && Date() < deadline {
            // Never blocks on a player that writes nothing (one stuck opening the FIFO).
            guard poll(&ready, 1, 100) > 0 else { continue }
            let chunk = journal.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(text.contains("item 2/\(Self.itemCount) started"), "\(text)")
        #expect(text.contains("warning: events: \(fifo) is a FIFO with no reader yet; events are lost until one opens it"), "\(text)")
        // A reader that comes now gets what follows.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        let line = firstLine(of: reader)
        close(reader)
        #expect(Self.isWholeEvent(line), "\(line)")
        kill(process.processIdentifier, SIGTERM)
        let (reason, status) = exitStatus(process)
        #expect(reason == .exit && status == 0)
    }
}
