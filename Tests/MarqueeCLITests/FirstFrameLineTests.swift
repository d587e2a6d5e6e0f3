import Foundation
import Testing

/// `first frame on screen X s after start` counts from marquee's own start, not from the start of
/// the process that exec'd it.
@Suite struct FirstFrameLineTests {
    @Test func countsFromMarqueesOwnStartNotFromTheShellThatExecdIt() throws {
        let folder = try PlayCommandTests.workspace.get()
        let marquee = try MarqueeProcess.executable().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The shell's process becomes marquee: the same pid, started 2 s before marquee runs.
        process.arguments = ["-c", "sleep 2; exec \"$0\" play a.mp4 --output headless:320x180 --clock fast --audio null --input none --exit-when-idle --repeat off",
                             marquee]
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        let line = try #require(stderr.split(separator: "\n").first { $0.contains("first frame on screen") }, "\(stderr)")
        // `info: first frame on screen 0.21 s after start (uptime 5123.45 s)`
        let figure = line.split(separator: " ").firstIndex(of: "after").flatMap { Double(line.split(separator: " ")[$0 - 2]) }
        let seconds = try #require(figure, "\(line)")
        #expect(seconds < 1.5, "\(line): counted the shell's 2 s sleep")
        print("first-frame line after a 2 s sleep in the shell that exec'd marquee: \(line)")
    }
}
