import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endSessions, listSessions } from '@/lib/allauth';
import type { Profile } from '@/lib/types';

export function useProfile() {
  return useQuery({ queryKey: ['me'], queryFn: () => api<Profile>('me/') });
}

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Partial<Omit<Profile, 'id' | 'email' | 'date_joined'>>) => api<Profile>('me/', { method: 'PATCH', body: input }),
    onSuccess: (profile) => {
      client.setQueryData(['me'], profile);
      void client.invalidateQueries({ queryKey: ['leaderboard'] });
    },
  });
}

export function useSessions() {
  return useQuery({ queryKey: ['auth', 'sessions'], queryFn: listSessions });
}

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => endSessions([id]),
    onSuccess: () => client.invalidateQueries({ queryKey: ['auth', 'sessions'] }),
  });
}
