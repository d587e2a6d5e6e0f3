import MarqueeCore

/// Resume after a restart: entering the queue at a saved point (`ResumePoint`) rather than at its
/// top, both when the player starts with its queue and when a run whose content comes later (a
/// fleet's cache, a fetched config) gets its first one.
extension QueuePlayer {
    /// Whether `point` is a place in the queue as it starts: the daypart it was saved in is the one
    /// playing (with a timetable; one that began since the point was looked up starts from its
    /// top) and its index is in the queue.
    func fits(_ point: ResumePoint) -> Bool {
        point.daypart == daypartPlaying && items.indices.contains(point.index)
    }

    /// Enters the saved item as a join is entered: its first frame is the one at the saved time,
    /// due now (its timeline laid so that time is now), not that time after the start.
    func enter(_ point: ResumePoint) {
        _ = cursor.jump(to: point.index)
        becomeCurrent(point.index, entry: ItemPipeline.Entry(time: point.time, toleranceBefore: .zero))
        presentation.restartItem(startingAt: clock.now() - max(.zero, point.time - (items[point.index].start ?? .zero)))
    }
}
