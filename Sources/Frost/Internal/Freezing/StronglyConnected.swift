/// Tarjan's algorithm, iterative (a 100,000-key graph must not overflow the stack).
struct StronglyConnected {
    /// The components that hold a cycle (more than one node, or one node with an edge to
    /// itself), each a list of node indices. The others, one node each (in an acyclic graph,
    /// every node), are not kept: freeze would allocate an array for each just to drop it.
    private(set) var cyclic: [[Int]] = []

    /// The edges of every node, in one array (a node's are a slice of it).
    struct Edges {
        let targets: [Int]
        /// Where each node's edges start in `targets`, and, last, `targets.count`.
        let starts: [Int]

        var count: Int { starts.count - 1 }

        subscript(node: Int) -> ArraySlice<Int> {
            targets[starts[node]..<starts[node + 1]]
        }
    }

    init(edges: Edges) {
        let count = edges.count
        var index = [Int](repeating: -1, count: count)
        var lowLink = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var nextIndex = 0
        // One work list for every root: an acyclic graph's roots are most of its nodes. Each
        // item is a node and the next of its edges to follow, in two arrays of integers (an
        // array of pairs makes a new process build a tuple type's metadata first).
        var workNodes: [Int] = []
        var workEdges: [Int] = []
        for root in 0..<count where index[root] == -1 {
            workNodes.append(root)
            workEdges.append(0)
            index[root] = nextIndex
            lowLink[root] = nextIndex
            nextIndex += 1
            stack.append(root)
            onStack[root] = true
            while let node = workNodes.last, let edge = workEdges.last {
                let first = edges.starts[node]
                if first + edge < edges.starts[node + 1] {
                    workEdges[workEdges.count - 1] += 1
                    let next = edges.targets[first + edge]
                    if index[next] == -1 {
                        index[next] = nextIndex
                        lowLink[next] = nextIndex
                        nextIndex += 1
                        stack.append(next)
                        onStack[next] = true
                        workNodes.append(next)
                        workEdges.append(0)
                    } else if onStack[next] {
                        lowLink[node] = min(lowLink[node], index[next])
                    }
                    continue
                }
                workNodes.removeLast()
                workEdges.removeLast()
                if let parent = workNodes.last {
                    lowLink[parent] = min(lowLink[parent], lowLink[node])
                }
                if lowLink[node] == index[node] {
                    if stack.last == node, !edges[node].contains(node) {
                        stack.removeLast()
                        onStack[node] = false
                        continue
                    }
                    var component: [Int] = []
                    while let member = stack.popLast() {
                        onStack[member] = false
                        component.append(member)
                        if member == node { break }
                    }
                    cyclic.append(component.reversed())
                }
            }
        }
    }
}
