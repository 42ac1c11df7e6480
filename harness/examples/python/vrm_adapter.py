#!/usr/bin/env python3
"""A minimal physics-cts implementation over the stdio protocol, standard library only.

It implements the VRMC_constraints draft (profile `vrmc-constraints-draft`) for position and
rotation constraints, following the reference's decisions (reference/DESIGN.md: [D-VRM-REST],
[D-VRM-POSITION], [D-VRM-ROTATION], [D-VRM-ORDER]), and declares exactly those features, so
the harness marks aim cases NOT_SUPPORTED without asking. It takes part in the `constraints`
check family only (no validation: invalid files are not its business here).

Run it with: physics-cts run --impl stdio -- python3 harness/examples/python/vrm_adapter.py
Protocol: harness/PROTOCOL.md. Guide: harness/IMPLEMENTING.md.
"""
import json
import math
import struct
import sys

PROTOCOL_VERSION = 2
KEYS = ("VRMC_constraints-1.0", "VRMC_constraints")

HANDSHAKE = {
    "name": "vrm-python-example",
    "version": "0.1.0",
    "engine": "python %d.%d" % sys.version_info[:2],
    "protocol_version": PROTOCOL_VERSION,
    "capabilities": {
        "profiles": ["vrmc-constraints-draft"],
        # A trailing '*' or '.' declares every tag with that prefix.
        "features": ["vrm.position*", "vrm.rotation*", "vrm.space.", "vrm.weight.",
                     "vrm.chain", "vrm.constrained-parent"],
        "checks": ["constraints"],
    },
}


class ImplError(Exception):
    """An error the protocol carries: kind is not_supported, failed or bad_request."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


# --- quaternions [x, y, z, w] and 3x4 affine matrices (rows) --------------------------------

def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz]


def qinv(q):
    return [-q[0], -q[1], -q[2], q[3]]


def qnormalize(q):
    n = math.sqrt(sum(c * c for c in q))
    if not n > 0.0 or not math.isfinite(n):
        raise ImplError("bad_request", "a rotation is zero or not finite")
    return [c / n for c in q]


def qlog(q):
    """Rotation vector (axis * angle), shortest path."""
    x, y, z, w = q if q[3] >= 0.0 else [-c for c in q]
    s = math.sqrt(x * x + y * y + z * z)
    if s < 1e-300:
        return [2.0 * x, 2.0 * y, 2.0 * z]
    k = 2.0 * math.atan2(s, w) / s
    return [x * k, y * k, z * k]


def qexp(r):
    angle = math.sqrt(sum(c * c for c in r))
    if angle < 1e-12:
        return qnormalize([0.5 * r[0], 0.5 * r[1], 0.5 * r[2], 1.0])
    k = math.sin(0.5 * angle) / angle
    return [r[0] * k, r[1] * k, r[2] * k, math.cos(0.5 * angle)]


def quat_to_mat3(q):
    x, y, z, w = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


def mat3_to_quat(m):
    t = m[0][0] + m[1][1] + m[2][2]
    if t > 0.0:
        s = 2.0 * math.sqrt(t + 1.0)
        q = [(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s]
    elif m[0][0] > m[1][1] and m[0][0] > m[2][2]:
        s = 2.0 * math.sqrt(1.0 + m[0][0] - m[1][1] - m[2][2])
        q = [0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s]
    elif m[1][1] > m[2][2]:
        s = 2.0 * math.sqrt(1.0 + m[1][1] - m[0][0] - m[2][2])
        q = [(m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s]
    else:
        s = 2.0 * math.sqrt(1.0 + m[2][2] - m[0][0] - m[1][1])
        q = [(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s, (m[1][0] - m[0][1]) / s]
    return qnormalize(q)


def affine(t, r, s):
    m = quat_to_mat3(r)
    return [[m[i][0] * s[0], m[i][1] * s[1], m[i][2] * s[2], t[i]] for i in range(3)]


def compose(a, b):
    """a * b for 3x4 affine matrices."""
    return [[sum(a[i][k] * b[k][j] for k in range(3)) + (a[i][3] if j == 3 else 0.0)
             for j in range(4)] for i in range(3)]


def det3(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def inv3(m):
    d = det3(m)
    if abs(d) < 1e-300:
        raise ImplError("not_supported", "a singular parent matrix (zero scale)")
    c = [[m[(i + 1) % 3][(j + 1) % 3] * m[(i + 2) % 3][(j + 2) % 3]
          - m[(i + 1) % 3][(j + 2) % 3] * m[(i + 2) % 3][(j + 1) % 3] for j in range(3)]
         for i in range(3)]
    return [[c[j][i] / d for j in range(3)] for i in range(3)]


def closest_rotation(m):
    """The rotation of the polar decomposition (Newton: R <- (R + R^-T) / 2)."""
    r = [[m[i][j] for j in range(3)] for i in range(3)]
    for _ in range(100):
        inv = inv3(r)
        nxt = [[0.5 * (r[i][j] + inv[j][i]) for j in range(3)] for i in range(3)]
        delta = max(abs(nxt[i][j] - r[i][j]) for i in range(3) for j in range(3))
        r = nxt
        if delta < 1e-15:
            break
    return mat3_to_quat(r)


def decompose(m):
    """A glTF column-major 4x4 matrix as translation, rotation, scale."""
    cols = [m[0:3], m[4:7], m[8:11]]
    scale = [math.sqrt(sum(c * c for c in col)) for col in cols]
    if not all(s > 0.0 for s in scale):
        raise ImplError("not_supported", "a singular node matrix")
    rows = [[cols[j][i] / scale[j] for j in range(3)] for i in range(3)]
    if det3(rows) < 0.0:  # a mirror: a negative x scale
        scale[0] = -scale[0]
        for i in range(3):
            rows[i][0] = -rows[i][0]
    return list(m[12:15]), mat3_to_quat(rows), scale


# --- the scene ------------------------------------------------------------------------------

def read_document(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] == b"glTF":
        length, kind = struct.unpack_from("<II", data, 12)
        if kind != 0x4E4F534A:
            raise ImplError("failed", "the first GLB chunk is not JSON")
        data = data[20:20 + length]
    return json.loads(data.decode("utf-8"))


class Scene:
    def __init__(self, doc):
        nodes = doc.get("nodes", [])
        self.rest = []
        self.parent = [None] * len(nodes)
        for i, node in enumerate(nodes):
            if "matrix" in node:
                self.rest.append(decompose(node["matrix"]))
            else:
                self.rest.append((list(node.get("translation", [0.0, 0.0, 0.0])),
                                  qnormalize(node.get("rotation", [0.0, 0.0, 0.0, 1.0])),
                                  list(node.get("scale", [1.0, 1.0, 1.0]))))
            for child in node.get("children", []):
                self.parent[child] = i
        self.constraints = []
        for i, node in enumerate(nodes):
            ext = node.get("extensions", {})
            body = next((ext[k] for k in KEYS if k in ext), None)
            if body is None:
                continue
            if "aim" in body:
                raise ImplError("not_supported", "aim constraints")
            kind = "position" if "position" in body else "rotation"
            c = body[kind]
            self.constraints.append({
                "node": i, "kind": kind, "source": c["source"],
                "source_space": c.get("sourceSpace", "model").lower(),
                "destination_space": c.get("destinationSpace", "model").lower(),
                "mask": [1.0 if f else 0.0 for f in c.get("freezeAxes", [True] * 3)],
                "weight": float(c.get("weight", 1.0)),
            })
        self.order = self.dependency_order()

    def ancestors(self, node):
        out, p = [], self.parent[node]
        while p is not None and len(out) < len(self.parent):
            out.append(p)
            p = self.parent[p]
        return out

    def dependency_order(self):
        """[D-VRM-ORDER]: after every constraint that moves a node this one reads."""
        writes = {c["node"]: k for k, c in enumerate(self.constraints)}
        deps = []
        for c in self.constraints:
            read = [c["source"]]
            if c["source_space"] == "model":
                read += self.ancestors(c["source"])
            if c["destination_space"] == "model":
                read += self.ancestors(c["node"])
            deps.append({writes[n] for n in read if n in writes})
        order, done = [], set()
        while len(order) < len(self.constraints):
            ready = [k for k in range(len(self.constraints))
                     if k not in done and deps[k] <= done]
            if not ready:
                raise ImplError("failed", "the constraints form a cycle")
            order.append(ready[0])
            done.add(ready[0])
        return order

    # Quantities under local poses `locals` (a list of (t, r, s)).
    def model(self, locals_, node):
        m = affine(*locals_[node])
        for a in self.ancestors(node):
            m = compose(affine(*locals_[a]), m)
        return m

    def model_rotation(self, locals_, node):
        if node is None:
            return [0.0, 0.0, 0.0, 1.0]
        chain = [node] + self.ancestors(node)
        if all(uniform(locals_[n][2]) for n in chain):
            q = [0.0, 0.0, 0.0, 1.0]
            for n in chain:
                q = qmul(locals_[n][1], q)
            return q
        m = self.model(locals_, node)
        cols = [[m[i][j] for i in range(3)] for j in range(3)]
        norms = [math.sqrt(sum(v * v for v in col)) for col in cols]
        return closest_rotation([[m[i][j] / norms[j] for j in range(3)] for i in range(3)])

    def position(self, locals_, node, space):
        if space == "local":
            return locals_[node][0]
        m = self.model(locals_, node)
        return [m[0][3], m[1][3], m[2][3]]

    def rotation(self, locals_, node, space):
        if space == "local":
            return locals_[node][1]
        return self.model_rotation(locals_, node)

    def evaluate(self, poses):
        cur = [tuple(list(v) for v in trs) for trs in self.rest]
        for key, pose in poses.get("nodes", {}).items():
            node = int(key)
            if not 0 <= node < len(cur):
                raise ImplError("bad_request", "pose of an unknown node %d" % node)
            t, r, s = cur[node]
            cur[node] = (list(pose.get("translation", t)),
                         qnormalize(pose.get("rotation", r)),
                         list(pose.get("scale", s)))
        for k in self.order:
            self.apply(self.constraints[k], cur)
        out = []
        for c in self.constraints:
            t, r, s = cur[c["node"]]
            if r[3] < 0.0:
                r = [-v for v in r]
            out.append({"node": c["node"], "translation": t, "rotation": r, "scale": s})
        return out

    def apply(self, c, cur):
        dst, src, w, mask = c["node"], c["source"], c["weight"], c["mask"]
        rt, rr, _ = self.rest[dst]
        t, r, s = cur[dst]
        if c["kind"] == "position":
            # [D-VRM-POSITION] delta = (s - s0) masked, times weight, in the destination space.
            s1 = self.position(cur, src, c["source_space"])
            s0 = self.position(self.rest, src, c["source_space"])
            delta = [(s1[i] - s0[i]) * mask[i] * w for i in range(3)]
            if c["destination_space"] == "model":
                p = self.parent[dst]
                if p is not None:
                    inv = inv3([row[:3] for row in self.model(cur, p)])
                    delta = [sum(inv[i][j] * delta[j] for j in range(3)) for i in range(3)]
            t = [rt[i] + delta[i] for i in range(3)]
        else:
            # [D-VRM-ROTATION] delta S0^-1 S (local) or S S0^-1 (model), frozen on the rotation
            # vector, slerp(I, delta, w) = exp(w log delta).
            s1 = self.rotation(cur, src, c["source_space"])
            s0 = self.rotation(self.rest, src, c["source_space"])
            if c["source_space"] == "local":
                delta = qmul(qinv(s0), s1)
            else:
                delta = qmul(s1, qinv(s0))
            delta = qexp([v * m * w for v, m in zip(qlog(delta), mask)])
            if c["destination_space"] == "local":
                r = qmul(rr, delta)
            else:
                p = self.model_rotation(cur, self.parent[dst])
                r = qmul(qmul(qmul(qinv(p), delta), p), rr)
            r = qnormalize(r)
        cur[dst] = (t, r, s)


def uniform(s):
    return s[0] > 0.0 and abs(s[1] - s[0]) <= 1e-12 * s[0] and abs(s[2] - s[0]) <= 1e-12 * s[0]


# --- the protocol ---------------------------------------------------------------------------

class Adapter:
    def __init__(self):
        self.scene = None

    def handle(self, req):
        op = req.get("op")
        if op == "handshake":
            return HANDSHAKE
        if op == "load":
            if req.get("profile") != "vrmc-constraints-draft":
                raise ImplError("not_supported", "profile %s" % req.get("profile"))
            self.scene = Scene(read_document(req["path"]))
            return {"outcome": "loaded", "notes": []}
        if op == "evaluate_constraints":
            if self.scene is None:
                raise ImplError("bad_request", "evaluate_constraints before load")
            return self.scene.evaluate(req["poses"])
        if op == "unload":
            self.scene = None
            return None
        raise ImplError("not_supported", "op %s" % op)


def main():
    adapter = Adapter()
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            answer = {"seq": req["seq"], "ok": adapter.handle(req)}
        except ImplError as e:
            answer = {"seq": req["seq"], "error": {"error": e.kind, "message": str(e)}}
        except (KeyError, ValueError, TypeError, OSError) as e:
            answer = {"seq": req["seq"], "error": {"error": "failed", "message": repr(e)}}
        # stdout carries the protocol only; log on stderr.
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
