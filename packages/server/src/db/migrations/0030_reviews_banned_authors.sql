-- Reviews by banned users are hidden from every list; they no longer count in the stored rating either.
-- The delta trigger counts only reviews whose author is not banned, and banning or unbanning a user moves
-- the ratings of every plugin the user reviewed, in the same transaction.
CREATE OR REPLACE FUNCTION reviews_apply_rating_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
    UPDATE plugins p SET rating_count = p.rating_count + d.count, rating_total = p.rating_total + d.total
    FROM (SELECT n.plugin_id, count(*) AS count, sum(n.rating) AS total
          FROM new_rows n JOIN users u ON u.id = n.author_id WHERE NOT u.banned GROUP BY n.plugin_id) d
    WHERE p.id = d.plugin_id;
  END IF;
  IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
    UPDATE plugins p SET rating_count = p.rating_count - d.count, rating_total = p.rating_total - d.total
    FROM (SELECT o.plugin_id, count(*) AS count, sum(o.rating) AS total
          FROM old_rows o JOIN users u ON u.id = o.author_id WHERE NOT u.banned GROUP BY o.plugin_id) d
    WHERE p.id = d.plugin_id;
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION users_banned_move_ratings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := CASE WHEN NEW.banned THEN -1 ELSE 1 END;
BEGIN
  UPDATE plugins p SET rating_count = p.rating_count + direction * d.count,
    rating_total = p.rating_total + direction * d.total
  FROM (SELECT plugin_id, count(*) AS count, sum(rating) AS total FROM reviews WHERE author_id = NEW.id
        GROUP BY plugin_id) d
  WHERE p.id = d.plugin_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER users_banned_move_ratings AFTER UPDATE OF banned ON users
  FOR EACH ROW WHEN (OLD.banned IS DISTINCT FROM NEW.banned) EXECUTE FUNCTION users_banned_move_ratings();

-- Ratings stored before this migration counted banned authors: count again where they did.
UPDATE plugins p SET rating_count = coalesce(d.count, 0), rating_total = coalesce(d.total, 0)
FROM plugins q LEFT JOIN (
  SELECT r.plugin_id, count(*)::integer AS count, sum(r.rating)::integer AS total
  FROM reviews r JOIN users u ON u.id = r.author_id WHERE NOT u.banned GROUP BY r.plugin_id
) d ON d.plugin_id = q.id
WHERE p.id = q.id AND (p.rating_count <> coalesce(d.count, 0) OR p.rating_total <> coalesce(d.total, 0));
